// lngrad C API: the cube's data movement (the vendor's c_api/cube_datamove/cube_datamove.h), the
// Ascend 950's forms the kit's C-API cube samples use, each on the C++ API's instruction
// (lngrad_cube/c_api.h): GM -> L1 (bursts, ND2NZ, DN2NZ), L1 -> L0A/L0B (2D, transposed),
// L1 -> BiasTable/Fixpipe Buffer, the MX scales, L0C -> GM through Fixpipe's engine and the FIX
// registers. Parameters lngrad does not emulate (cache controls change no data; the others) must
// be 0: cube.params otherwise.
#pragma once

#include <cstdint>

#include "lngrad_cube/c_api.h"
#include "lngrad_cube/mx.h"

// asc_copy_l0c2gm's post-quantisation modes (the 950; lngrad runs NoConv only).
enum QuantMode_post : uint64_t {
  NoConv,
  QS162B8_POST,
  VQS162B8_POST,
  QF162B8_POST,
  VQF162B8_POST,
  QS162S4_POST,
  VQS162S4_POST,
  QF162S4_POST,
  VQF162S4_POST,
  QS162S16_POST,
  VQS162S16_POST,
  QF162S16_POST,
  VQF162S16_POST,
};

// GM -> L1: n_burst bursts of len_burst 32-byte blocks, the gaps in 32-byte blocks; the trailing
// parameter of the 7-argument form is a cache control.
inline void asc_copy_gm2l1(__cbuf__ void* dst, __gm__ void* src, uint16_t n_burst,
                           uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,
                           uint8_t cache_ctl = 0,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  (void)cache_ctl;
  namespace c = ::lngrad::cube::capi;
  AscendC::DataCopy(c::Local<uint8_t>(dst, AscendC::TPosition::A1, "asc_copy_gm2l1"),
                    c::Global(static_cast<uint8_t*>(src)),
                    AscendC::DataCopyParams(n_burst, len_burst, src_gap, dst_gap), loc);
}
inline void asc_copy_gm2l1(__cbuf__ void* dst, __gm__ void* src, uint32_t size,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  namespace c = ::lngrad::cube::capi;
  AscendC::DataCopy(c::Local<uint8_t>(dst, AscendC::TPosition::A1, "asc_copy_gm2l1"),
                    c::Global(static_cast<uint8_t*>(src)), size, loc);
}

// UB -> L1 (an AIV of the 950 into its AI core's L1) on MTE3: size bytes, or n_burst bursts of
// len_burst 32-byte blocks with the gaps (end to start, in blocks) between them.
inline void asc_copy_ub2l1(__cbuf__ void* dst, __ubuf__ void* src, uint32_t size,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  namespace c = ::lngrad::cube::capi;
  AscendC::DataCopy(c::Local<uint8_t>(dst, AscendC::TPosition::A1, "asc_copy_ub2l1"),
                    c::Local<uint8_t>(src, AscendC::TPosition::VECCALC, "asc_copy_ub2l1"), size,
                    loc);
}
inline void asc_copy_ub2l1(__cbuf__ void* dst, __ubuf__ void* src, uint16_t n_burst,
                           uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  auto* d = static_cast<uint8_t*>(dst);
  auto* s = static_cast<uint8_t*>(src);
  const uint32_t len = uint32_t{len_burst} * 32;
  for (uint16_t i = 0; i < n_burst; ++i) {  // one MTE3 copy per burst
    asc_copy_ub2l1(d + uint64_t{i} * (len + uint32_t{dst_gap} * 32),
                   s + uint64_t{i} * (len + uint32_t{src_gap} * 32), len, loc);
  }
}

// The ND2NZ/DN2NZ register of asc_copy_gm2l1_nd2nz and asc_copy_gm2l1_dn2nz.
inline void asc_set_gm2l1_nz_para(uint64_t config) { ::lngrad::cube::capi::SetNzPara(config); }

namespace lngrad::cube::capi {
// The C++ parameters of an ND2NZ/DN2NZ copy: the register's matrix count and destination
// strides, the source strides in bytes (loop1: between rows, loop4: between matrices).
template <typename P, typename T>
P NzParams(uint64_t loop1_src_stride, uint16_t n_value, uint32_t d_value, uint64_t loop4_src_stride,
           bool smallc0_en, const char* api) {
  RequireZero(api, "smallc0_en", smallc0_en ? 1 : 0);
  const uint64_t r = NzPara(api);
  const uint64_t elem = sizeof(T);
  return P(static_cast<uint16_t>(r & 0xFFFF), n_value, d_value, loop4_src_stride / elem,
           loop1_src_stride / elem, static_cast<uint16_t>((r >> 32) & 0xFFFF),
           static_cast<uint16_t>((r >> 16) & 0xFFFF), static_cast<uint16_t>(r >> 48));
}
}  // namespace lngrad::cube::capi

// GM -> L1 (NZ) from ND (rows loop1_src_stride bytes apart: DataCopy with Nd2NzParams) or DN
// (columns loop1_src_stride bytes apart: Dn2NzParams), one row per C name.
#define LNGRAD_CUBE_C_NZ_COPIES(X)     \
  X(asc_copy_gm2l1_nd2nz, Nd2NzParams) \
  X(asc_copy_gm2l1_dn2nz, Dn2NzParams)
#define LNGRAD_CUBE_C_NZ_COPY(name, params)                                                  \
  template <typename T>                                                                      \
  void name(__cbuf__ T* dst, __gm__ T* src, uint64_t loop1_src_stride, uint8_t l2_cache_ctl, \
            uint16_t n_value, uint32_t d_value, uint64_t loop4_src_stride, bool smallc0_en,  \
            ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {            \
    (void)l2_cache_ctl;                                                                      \
    namespace c = ::lngrad::cube::capi;                                                      \
    AscendC::DataCopy(c::Local<T>(dst, AscendC::TPosition::A1, #name), c::Global(src),       \
                      c::NzParams<AscendC::params, T>(loop1_src_stride, n_value, d_value,    \
                                                      loop4_src_stride, smallc0_en, #name),  \
                      loc);                                                                  \
  }
LNGRAD_CUBE_C_NZ_COPIES(LNGRAD_CUBE_C_NZ_COPY)
#undef LNGRAD_CUBE_C_NZ_COPY

// L1 -> L0A/L0B (the 950's 2D load, LoadData2DParamsV2), one row per C name: its destination
// (space, position) and whether it transposes.
#define LNGRAD_CUBE_C_LOADS(X)                   \
  X(asc_copy_l12l0a, __ca__, A2, false)          \
  X(asc_copy_l12l0b, __cb__, B2, false)          \
  X(asc_copy_l12l0a_transpose, __ca__, A2, true) \
  X(asc_copy_l12l0b_transpose, __cb__, B2, true)
#define LNGRAD_CUBE_C_LOAD(name, space, pos, transpose)                                          \
  template <typename T>                                                                          \
  void name(space T* dst, __cbuf__ T* src, uint16_t m_start_position, uint16_t k_start_position, \
            uint8_t m_step, uint8_t k_step, int16_t src_stride, uint16_t dst_stride,             \
            ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {                \
    namespace c = ::lngrad::cube::capi;                                                          \
    AscendC::LoadData(c::Local<T>(dst, AscendC::TPosition::pos, #name),                          \
                      c::Local<T>(src, AscendC::TPosition::A1, #name),                           \
                      AscendC::LoadData2DParamsV2(m_start_position, k_start_position, m_step,    \
                                                  k_step, src_stride, dst_stride, transpose, 0), \
                      loc);                                                                      \
  }
LNGRAD_CUBE_C_LOADS(LNGRAD_CUBE_C_LOAD)
#undef LNGRAD_CUBE_C_LOAD

// L1 -> L0B transposed by fractal squares (LoadDataWithTranspose). The intrinsic counts index_id
// and src_stride in 512-byte fractals; the C++ API in squares, two fractals for 1- and 4-byte
// types.
template <typename T>
void asc_copy_l12l0b_trans(__cb__ T* dst, __cbuf__ T* src, uint16_t index_id, uint8_t repeat,
                           uint16_t src_stride, uint16_t dst_gap, uint16_t dst_frac_gap,
                           uint16_t src_frac_gap,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  namespace c = ::lngrad::cube::capi;
  constexpr const char* kApi = "asc_copy_l12l0b_trans";
  c::RequireZero(kApi, "src_frac_gap", src_frac_gap);
  constexpr uint16_t kUnit = sizeof(T) == 2 ? 1 : 2;
  c::RequireZero(kApi, "index_id % fractals per square", index_id % kUnit);
  c::RequireZero(kApi, "src_stride % fractals per square", src_stride % kUnit);
  AscendC::LoadDataWithTranspose(
      c::Local<T>(dst, AscendC::TPosition::B2, kApi),
      c::Local<T>(src, AscendC::TPosition::A1, kApi),
      AscendC::LoadData2dTransposeParams(index_id / kUnit, repeat, src_stride / kUnit, dst_gap,
                                         dst_frac_gap),
      loc);
}

// L1 -> BiasTable at byte address dst (bursts of 32-byte blocks on the 950, as DataCopy C1 -> C2).
inline void asc_copy_l12bt(uint64_t dst, __cbuf__ void* src, uint16_t conv_control,
                           uint16_t n_burst, uint16_t len_burst, uint16_t source_gap,
                           uint16_t dst_gap,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  namespace c = ::lngrad::cube::capi;
  constexpr const char* kApi = "asc_copy_l12bt";
  c::RequireZero(kApi, "conv_control", conv_control);
  const auto bt = AscendC::LocalTensor<uint8_t>(AscendC::TPosition::C2, static_cast<uint32_t>(dst),
                                                static_cast<uint32_t>(n_burst) * len_burst * 32);
  AscendC::DataCopy(bt, c::Local<uint8_t>(src, AscendC::TPosition::C1, kApi),
                    AscendC::DataCopyParams(n_burst, len_burst, source_gap, dst_gap), loc);
}

// The first size bytes (a multiple of 32) of L1 -> BiasTable at byte address dst.
inline void asc_copy_l12bt(uint64_t dst, __cbuf__ void* src, uint32_t size,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::cube::capi::RequireZero("asc_copy_l12bt", "size % 32", size % 32);
  asc_copy_l12bt(dst, src, 0, 1, static_cast<uint16_t>(size / 32), 0, 0, loc);
}

// Fill's parameters as one register value: repeat, blocks per repeat, gap (32-byte units in L1).
union asc_fill_value_config {
  uint64_t config = 0;
  struct {
    uint64_t repeat : 15;
    uint64_t reserved1 : 1;
    uint64_t blk_num : 15;
    uint64_t reserved2 : 1;
    uint64_t dst_gap : 15;
    uint64_t reserved3 : 17;
  };
};
// L1 filled with value (converted to T) as Fill with InitConstValueParams does.
template <typename T, typename V>
void asc_fill_l1(__cbuf__ T* dst, V value, const asc_fill_value_config& config,
                 ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  AscendC::Fill(::lngrad::cube::capi::Local<T>(dst, AscendC::TPosition::A1, "asc_fill_l1"),
                AscendC::InitConstValueParams<T>(
                    static_cast<uint16_t>(config.repeat), static_cast<uint16_t>(config.blk_num),
                    static_cast<uint16_t>(config.dst_gap), static_cast<T>(value)),
                loc);
}

// L1 -> Fixpipe Buffer: len_burst and dst_gap_size in the 950 instruction's 64-byte units (the
// C++ API's 128-byte ones halved), src_gap_size in 32-byte blocks.
inline void asc_copy_l12fb(__fbuf__ void* dst, __cbuf__ void* src, uint16_t n_burst,
                           uint16_t len_burst, uint16_t src_gap_size, uint16_t dst_gap_size,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  namespace c = ::lngrad::cube::capi;
  constexpr const char* kApi = "asc_copy_l12fb";
  c::RequireZero(kApi, "len_burst % 2 (the 128-byte unit)", len_burst % 2);
  c::RequireZero(kApi, "dst_gap_size % 2 (the 128-byte unit)", dst_gap_size % 2);
  AscendC::DataCopy(c::Local<uint8_t>(dst, AscendC::TPosition::C2PIPE2GM, kApi),
                    c::Local<uint8_t>(src, AscendC::TPosition::A1, kApi),
                    AscendC::DataCopyParams(n_burst, len_burst / 2, src_gap_size, dst_gap_size / 2),
                    loc);
}

// The MX scales: L1 -> L0A_MX/L0B_MX at address dst of that buffer (the kernel's L0A/L0B
// pointer / 16, as the 950 maps the buffers; c::MxAddress reads it).
#define LNGRAD_CUBE_C_MX_LOADS(X) \
  X(asc_copy_l12l0a_mx, 0)        \
  X(asc_copy_l12l0b_mx, 1)
#define LNGRAD_CUBE_C_MX_LOAD(name, side)                                                     \
  inline void name(uint64_t dst, __cbuf__ fp8_e8m0_t* src, uint16_t x_start_pos,              \
                   uint16_t y_start_pos, uint8_t x_step, uint8_t y_step, uint16_t src_stride, \
                   uint16_t dst_stride,                                                       \
                   ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {      \
    namespace c = ::lngrad::cube::capi;                                                       \
    ::lngrad::cube::LoadMxScalesAt(                                                           \
        side, c::MxAddress(dst, side, #name),                                                 \
        c::Local<fp8_e8m0_t>(src, AscendC::TPosition::A1, #name).View(),                      \
        AscendC::LoadData2DMxParams(x_start_pos, y_start_pos, x_step, y_step, src_stride,     \
                                    dst_stride),                                              \
        loc);                                                                                 \
  }
LNGRAD_CUBE_C_MX_LOADS(LNGRAD_CUBE_C_MX_LOAD)
#undef LNGRAD_CUBE_C_MX_LOAD

// The FIX registers: NZ2ND, the scalar quantisation value, the vector values' address.
inline void asc_set_l0c2gm_nz2nd(uint64_t nd_num, uint64_t src_nd_stride, uint64_t dst_nd_stride) {
  ::lngrad::cube::SetNz2nd(static_cast<uint16_t>(nd_num), static_cast<uint16_t>(src_nd_stride),
                           static_cast<uint32_t>(dst_nd_stride));
}
inline void asc_set_l0c_copy_prequant(uint64_t config) { ::lngrad::cube::SetPreQuant(config); }
inline void asc_set_l0c2gm_config(uint64_t relu_addr, uint64_t quant_addr, bool unit_flag) {
  ::lngrad::cube::capi::RequireZero("asc_set_l0c2gm_config", "relu_addr", relu_addr);
  (void)unit_flag;
  ::lngrad::cube::capi::SetQuantAddress(quant_addr, "asc_set_l0c2gm_config");
}

// L0C -> GM through Fixpipe's engine (the 950's form).
template <typename T, typename U>
void asc_copy_l0c2gm(__gm__ T* dst, __cc__ U* src, uint16_t n_size, uint16_t m_size,
                     uint32_t dst_stride, uint16_t src_stride, uint8_t l2_cache_ctl,
                     uint8_t clip_relu_pre, uint8_t unit_flag_ctl, uint64_t quant_pre,
                     uint8_t relu_pre, bool split_en, bool nz2nd_en, uint64_t quant_post,
                     uint8_t relu_post, bool clip_relu_post, uint8_t eltwise_op,
                     bool eltwise_antq_en, bool c0_pad_en, bool broadcast_en, bool nz2dn_en,
                     ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  namespace c = ::lngrad::cube::capi;
  constexpr const char* kApi = "asc_copy_l0c2gm";
  (void)l2_cache_ctl;
  (void)unit_flag_ctl;
  const uint64_t unsupported[] = {clip_relu_pre, quant_post,      relu_post, clip_relu_post,
                                  eltwise_op,    eltwise_antq_en, c0_pad_en, broadcast_en};
  for (const uint64_t v : unsupported)
    c::RequireZero(kApi, "a post-quantisation/eltwise/pad field", v);
  const ::lngrad::aicore::detail::TensorView* q = nullptr;
  const ::lngrad::cube::FixArgs a = c::CopyOutArgs(
      {n_size, m_size, dst_stride, src_stride, quant_pre, relu_pre, split_en, nz2nd_en, nz2dn_en},
      &q);
  ::lngrad::cube::FixpipeTo(c::Global(dst), c::Local<U>(src, AscendC::TPosition::CO1, kApi), q, a,
                            loc);
}
