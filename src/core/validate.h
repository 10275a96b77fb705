// Argument checks shared by the public entry points. Every message starts with the function
// name and names the argument and the rule it broke, e.g.
//   "LayerNormGrad: argument 'pd_x' overlaps 'dy'".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "lngrad/lngrad.h"

namespace lngrad::core {

// A tensor argument: its name as declared in lngrad.h, its address and its size in bytes.
struct BufferArg {
  const char* name;
  const void* ptr;
  size_t bytes;
};

// Sizes of one problem's tensors in bytes.
struct TensorBytes {
  size_t matrix;   // rows*h elements
  size_t per_row;  // rows elements
  size_t per_col;  // h elements
};

// Shortest text that reads back as the same float ("1e-05", "nan", "-inf").
std::string FormatValue(float v);

// shape.rows >= min_rows (1, or 0 where an empty batch is allowed) and shape.h >= 1; rows*h fits
// int64 and rows*h*elem_size bytes fits ptrdiff_t.
Status CheckShape(const char* fn, RowShape shape, size_t elem_size, TensorBytes* bytes,
                  int64_t min_rows = 1);
// n >= 1 and n*elem_size bytes fits ptrdiff_t.
Status CheckCount(const char* fn, const char* name, int64_t n, size_t elem_size, size_t* bytes);
// A buffer of zero bytes (an empty batch) may be null.
Status CheckNotNull(const char* fn, std::span<const BufferArg> args);
// epsilon finite and >= 0.
Status CheckEpsilon(const char* fn, float epsilon);
// options.num_threads >= 0, options.impl a declared value.
Status CheckOptions(const char* fn, const Options& options);
// No output overlaps another output or any input, and no buffer wraps around the address
// space. Inputs may overlap each other (they are only read).
Status CheckNoOverlap(const char* fn, std::span<const BufferArg> outputs,
                      std::span<const BufferArg> inputs);

}  // namespace lngrad::core
