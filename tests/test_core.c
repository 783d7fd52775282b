#include "support.h"
Test(placeholder, test_core) { cr_assert(1); }
