#include <gtest/gtest.h>
TEST(Placeholder, fp16) {}
