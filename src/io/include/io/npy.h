// lngrad_io: NumPy .npy format (versions 1.0, 2.0 and 3.0), written from the format's public
// description: magic "\x93NUMPY", major/minor version bytes, a little-endian header length
// (uint16 for 1.0, uint32 for 2.0/3.0), a Python-literal dict with 'descr', 'fortran_order' and
// 'shape', padded with spaces and ended by '\n', then the raw array data.
//
// Accepted on read: descr '<f2', '<f4', '<f8' (little-endian IEEE binary16/32/64); C order (a
// Fortran-order flag is accepted only when the layout is the same, i.e. at most one dimension
// is larger than 1); data exactly as long as the shape says. Everything else is refused with an
// InvalidArgument that names the file and the rule (big-endian, Fortran order, other dtypes,
// truncated data, trailing bytes, malformed header).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/tensor.h"

namespace lngrad::io {

inline constexpr std::string_view kNpyMagic = "\x93NUMPY";

// What a parsed header says.
struct NpyHeader {
  int major_version = 1;
  int minor_version = 0;
  DType dtype = DType::kFloat32;
  bool fortran_order = false;
  std::vector<int64_t> shape;
  int64_t element_count = 0;
  size_t data_offset = 0;  // bytes from the start of the file to the first element
};

// Checks the magic and version of `head` (the first bytes of the file; at least 12 are needed
// for a 2.0/3.0 file, 10 for 1.0) and returns the offset of the array data, i.e. the end of the
// header dict. `name` names the file in messages.
Status ParseNpyPreamble(std::string_view head, std::string_view name, NpyHeader* out);

// Parses the header dict (the bytes between the length field and the data) into `out`
// (dtype, fortran_order, shape, element_count). Keys may come in any order; all three are
// required; unknown or repeated keys are errors.
Status ParseNpyDict(std::string_view dict, std::string_view name, NpyHeader* out);

// Header bytes (magic to '\n', padded so that the data starts at a multiple of 64 bytes) for a
// C-order little-endian array of `dtype` and `shape`. version: 1, 2 or 3; 0 picks 1.0 when the
// header fits its 16-bit length field, else 2.0 (as NumPy does).
std::string EncodeNpyHeader(DType dtype, const std::vector<int64_t>& shape, int version = 0);

// Whole-buffer forms (tests, small files): header + little-endian data.
std::string EncodeNpy(const Tensor& t, int version = 0);
Status DecodeNpy(std::string_view bytes, std::string_view name, Tensor* out);

}  // namespace lngrad::io
