#include "support.h"
Test(placeholder, test_cli) { cr_assert(1); }
