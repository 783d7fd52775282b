#include "support.h"
Test(placeholder, test_piece_o_cake) { cr_assert(1); }
