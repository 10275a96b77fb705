// lngrad Ascend C tensor API (AscendC::Te, layer cube): the MX scales' copies (the 950).
//
//   CopyGM2L1        GM -> L1 of e8m0 scales (MTE2): ScaleAND / ScaleADN into ZZ (A's scales),
//                    ScaleBND / ScaleBDN into NN (B's), moved as b16 pairs of K scales by DataCopy
//                    Dn2Nz (ScaleAND, ScaleBDN) or Nd2Nz (ScaleADN, ScaleBND), as the vendor's.
//   CopyL12L0ScaleA  L1 (ZZ) -> L0ScaleA (ZZ), CopyL12L0ScaleB  L1 (NN) -> L0ScaleB (NN): the 2D MX
//                    load (LoadData2DMxParams: 32-byte fractals of 16 rows (A) or columns (B)
//                    by 2 K scales) into the MX buffer of MakeMemPtr<Location::L0ScaleA/B>(addr).
// The fractals' order in the MX buffer is the one the cube's MmadMx reads (lngrad_cube/mx.h);
// Mmad with an MmadType::MX trait runs MmadMx (atom.h). Misuse: tensor_api.position and
// tensor_api.layout always, tensor_api.alignment (an origin or a K extent off the b16 pairs or the
// 16-row fractals) in checked mode; then the cube's own checks.
#pragma once

#include <cstdint>

#include "lngrad_cube/c_api.h"
#include "lngrad_cube/mx.h"
#include "tensor_api/atom/atom.h"

namespace AscendC::Te {

namespace detail {

// One GM -> L1 move of scales as b16 (pairs of K scales): n rows of d values, src_ld b16
// between source rows (Nd2Nz) or columns (Dn2Nz), dst_c0_stride 32-byte blocks between the
// destination's 16-row (ZZ) or 16-column (NN) blocks.
struct ScaleMove {
  bool dn;  // Dn2Nz (ScaleAND, ScaleBDN), else Nd2Nz
  uint32_t n, d;
  uint64_t src_ld;
  uint32_t dst_c0_stride;
};
ScaleMove GmToL1ScaleMove(const FrameLayout& dst, const FrameLayout& src, const Triple& origin,
                          const Triple& extent, const char* api);

// L1 -> L0ScaleA/B: the 2D MX load's parameters for src's slice into dst (side 0: A, ZZ; 1: B,
// NN); raises tensor_api.layout and (checked mode) tensor_api.alignment.
AscendC::LoadData2DMxParams L1ToL0ScaleParams(const FrameLayout& dst, const FrameLayout& src,
                                              const Triple& src_origin, const Triple& dst_origin,
                                              const Triple& dst_extent, int side, const char* api);
// Raises tensor_api.position: operand (a tensor of MX buffer `side`, or -1: of the memory p is
// in) is not in want (0: L0ScaleA, 1: L0ScaleB, -1: L1).
[[noreturn]] void RaiseScalePosition(const char* api, const char* operand, int side, const void* p,
                                     int want);

template <typename T>
void CopyGmToL1Scale(const Tensor<T>& dst, const Tensor<T>& src, lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyGM2L1, MX scales)";
  if constexpr (!std::is_same_v<T, fp8_e8m0_t>) {
    (void)loc;
    RaiseLayout(kApi, dst.Layout().pattern, src.Layout().pattern);  // ZZ and NN hold scales
  } else {
    const ScaleMove m =
        GmToL1ScaleMove(dst.Layout(), src.Layout(), src.Origin(), src.Extent(), kApi);
    const bool a = dst.Layout().pattern == Pattern::kZZ;
    RequireGrid(kApi, "dst", dst.Origin().r, dst.Origin().c, a ? 16 : 2, a ? 2 : 16);
    for (uint32_t b = 0; b < src.Extent().b; ++b) {
      const AscendC::LocalTensor<uint16_t> l = LocalOf(dst, b).template ReinterpretCast<uint16_t>();
      const AscendC::GlobalTensor<uint16_t> g = GlobalAs<uint16_t>(GlobalOf(src, b));
      if (m.dn) {
        AscendC::DataCopy(l, g,
                          AscendC::Dn2NzParams(1, static_cast<uint16_t>(m.n), m.d, 0, m.src_ld,
                                               static_cast<uint16_t>(m.dst_c0_stride), 1, 0),
                          loc);
      } else {
        AscendC::DataCopy(l, g,
                          AscendC::Nd2NzParams(1, static_cast<uint16_t>(m.n), m.d, 0, m.src_ld,
                                               static_cast<uint16_t>(m.dst_c0_stride), 1, 0),
                          loc);
      }
    }
  }
}

template <typename T>
void CopyL1ToL0Scale(const Tensor<T>& dst, const Tensor<T>& src, int side,
                     lngrad::aicore::SrcLoc loc) {
  const char* api = side == 0 ? "Copy(CopyL12L0ScaleA)" : "Copy(CopyL12L0ScaleB)";
  static_assert(std::is_same_v<T, fp8_e8m0_t>,
                "Copy(CopyL12L0ScaleA/B): the scales are fp8_e8m0_t, in L1 and in L0ScaleA/B");
  if (dst.ScaleSide() != side) RaiseScalePosition(api, "dst", dst.ScaleSide(), dst.Data(), side);
  if (src.ScaleSide() != -1) RaiseScalePosition(api, "src", src.ScaleSide(), nullptr, -1);
  RequireMemory(api, "src", WhereOf(src.Data()), {TPosition::A1});
  const AscendC::LoadData2DMxParams p = L1ToL0ScaleParams(dst.Layout(), src.Layout(), src.Origin(),
                                                          dst.Origin(), dst.Extent(), side, api);
  const uint64_t base = lngrad::cube::capi::MxAddress(dst.ScaleAddr(), side, api);
  for (uint32_t b = 0; b < dst.Extent().b; ++b) {
    lngrad::cube::LoadMxScalesAt(side, base + dst.IndexOf(b, 0, 0), LocalOf(src, b).View(), p, loc);
  }
}

}  // namespace detail

template <typename Trait, typename P, typename T>
void Copy(const Atom<CopyL12L0ScaleA, Trait, P>&, const Tensor<T>& dst, const Tensor<T>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::CopyL1ToL0Scale(dst, src, 0, loc);
}
template <typename Trait, typename P, typename T>
void Copy(const Atom<CopyL12L0ScaleB, Trait, P>&, const Tensor<T>& dst, const Tensor<T>& src,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  detail::CopyL1ToL0Scale(dst, src, 1, loc);
}

}  // namespace AscendC::Te
