#include <gtest/gtest.h>
TEST(Placeholder, float) {}
