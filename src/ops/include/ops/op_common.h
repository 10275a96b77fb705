// lngrad::ops: what every operator call shares (layernorm_grad, layernorm_grad_beta, layernorm):
// element type, scratch size, launch configuration, the common arguments and what ran.
// Host-side; no kernel types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lngrad/status.h"

namespace lngrad {
struct Product;
}  // namespace lngrad

namespace lngrad::ops {

// Whether the product has DataCopyPad GM <-> UB (the vendor's product table: Atlas A2/A3,
// Atlas 200I/500 A2 and Ascend 950, not the Atlas inference or training series): the
// LayerNormGrad and LayerNormGradBeta operators take any H there, padding rows in UB with it;
// elsewhere H*sizeof(T) must be a multiple of 32 bytes.
bool HasDataCopyPad(const lngrad::Product& p);

// Element type of every tensor of one operator call.
enum class OpDType { kFloat32, kFloat16 };
inline uint32_t DTypeSize(OpDType t) { return t == OpDType::kFloat16 ? 2u : 4u; }
// "float" or "half" (the Ascend C type names).
const char* DTypeName(OpDType t);

// How much scratch each tile hands the high-level API: the minimum or maximum that the API's
// Get*MaxMinTmpSize reports for the tile's shape, or a fixed byte count.
struct TmpSize {
  enum class Kind { kMin, kMax, kBytes };
  Kind kind = Kind::kMin;
  uint32_t bytes = 0;  // used with kBytes
};
// Parses "min", "max" or a positive decimal byte count. InvalidArgument naming the text
// otherwise; *out unchanged on error.
Status ParseTmpSize(std::string_view text, TmpSize* out);
// "min", "max" or "<bytes> B".
std::string TmpSizeText(const TmpSize& t);

// How an operator is launched on the simulated device.
struct LaunchConfig {
  // AI vector cores the rows are split over, 1..65535. Blocks that would get no rows are not
  // launched (the operator's info reports how many ran).
  uint32_t blocks = 1;
  // SoC name of spec §7.2 (e.g. "Ascend910B1"); empty: lngrad::CurrentProduct().
  std::string soc;
  // false: the API's framework-scratch prototype (PopStackBuffer, as the official sample);
  // true: the sharedTmpBuffer prototype with a TBuf of the planned size.
  bool shared_tmp_buffer = false;
  // Run the blocks one after another on the calling thread (debugging).
  bool sequential = false;
  // Where the kernels write the large outputs (the inputs are always read in place):
  //   kStaged:  pooled GM, copied to the caller only when every launch of the call succeeded,
  //             so a failed call leaves the outputs untouched;
  //   kInPlace: straight into the caller's memory; a kernel failure during a launch may leave
  //             the outputs partly written (argument and planning errors still write nothing);
  //   kAuto:    kStaged when checked mode is on (lngrad::aicore::CheckedMode()), kInPlace when
  //             it is off.
  // Outputs that overlap an input or each other are always staged. Bits are the same in every
  // mode. Small outputs (LayerNormGradBeta's, LayerNorm's mean/variance) are always staged.
  enum class Outputs { kAuto, kStaged, kInPlace };
  Outputs outputs = Outputs::kAuto;
  // The pipeline sanitizer's tools for the launches (lngrad_aicore/sanitizer.h); unset:
  // LNGRAD_SANITIZE.
  std::optional<uint32_t> sanitize;
};

// The arguments of every operator call besides its tensors (and epsilon).
struct OpArgs {
  OpDType dtype = OpDType::kFloat32;
  // [B,S,H]; any H >= 1 for LayerNormGrad and LayerNormGradBeta on a product with DataCopyPad,
  // else (and for LayerNorm) H*sizeof(T) a multiple of 32 bytes.
  int64_t b = 0, s = 0, h = 0;
  bool reuse_source = false;  // isReuseSource of the API (see each operator)
  TmpSize tmp;                // scratch per tile (default: the minimum)
  LaunchConfig launch;

  void SetShape(OpDType t, int64_t b_, int64_t s_, int64_t h_) {
    dtype = t;
    b = b_;
    s = s_;
    h = h_;
  }
};

// What ran.
struct OpInfo {
  std::string soc;           // simulated product, e.g. "Ascend910B1"
  std::string product_line;  // e.g. "Atlas A2"
  uint32_t arch = 0;         // __NPU_ARCH__, e.g. 2201
  uint32_t blocks_requested = 0;
  uint32_t blocks_used = 0;
  std::string prototype;   // "PopStackBuffer" or "sharedTmpBuffer"
  uint32_t tmp_bytes = 0;  // stackBufferSize of block 0's full tile
  uint64_t ub_bytes = 0;   // block 0: TPipe allocations + scratch
  uint64_t tiles = 0;      // API calls over all blocks
};

// One block's share of the rows and its tiles (for reports and tests).
template <class Tiling>
struct OpBlockInfo {
  uint32_t row_start = 0, row_count = 0;
  uint32_t tile_rows = 0, tile_num = 0, tail_rows = 0;
  Tiling tile_tiling, tail_tiling;
};

template <class Tiling>
struct TiledOpInfo : OpInfo {
  std::vector<OpBlockInfo<Tiling>> blocks;
};

}  // namespace lngrad::ops
