// lngrad: argument rules shared by the command line and the Python module, so that both refuse
// the same values with the same words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lngrad/status.h"

namespace lngrad {

// The shortest decimal text that reads back as `v` ("1e-05", "1e+300", "inf", "nan").
std::string ShortestDouble(double v);

// Epsilon of LayerNorm and LayerNormGrad as the kernels take it: >= 0 and finite once converted
// to float (at most 3.40282347e38), and for half data on the device (which takes it as half) at
// most 65504, the largest finite half. `what` names the argument ("--eps", "argument 'eps'");
// the message reports the value as given (InvalidArgument).
Status CheckEpsilon(double eps, std::string_view what, bool as_half);

// The product of `n` extents, each >= 0, without overflow: InvalidArgument naming `what` (e.g.
// "--shape [1,1,4294967296,4294967296]: B*S*H*H0") when it does not fit in 63 bits.
Status CheckedProduct(const int64_t* dims, size_t n, std::string_view what, uint64_t* product);

}  // namespace lngrad
