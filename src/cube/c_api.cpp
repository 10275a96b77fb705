// What the cube's C API builds on (lngrad_cube/c_api.h): pointers into the cube's memories, the
// ND2NZ register, and asc_copy_l0c2gm's arguments for Fixpipe's engine.
#include "lngrad_cube/c_api.h"

#include <string>

#include "cube_internal.h"
#include "lngrad_aicore/local_memory.h"

namespace lngrad::cube::capi {

uint64_t OffsetIn(const void* p, AscendC::TPosition pos, const char* api, uint64_t* rest) {
  aicore::BlockContext& ctx = aicore::RequireBlockContext(api);
  const aicore::LocalMemory mem = aicore::MemoryOf(ctx, pos, api);
  const auto* b = static_cast<const std::byte*>(p);
  if (b < mem.base || b >= mem.base + mem.capacity) {
    Raise(checks::kPosition, api,
          std::string("the pointer is not in the block's ") + mem.name +
              " (a C-API cube pointer comes from an array of that memory)");
  }
  const auto offset = static_cast<uint64_t>(b - mem.base);
  *rest = mem.capacity - offset;
  return offset;
}

uint64_t MxAddress(uint64_t dst, int side, const char* api) {
  if (dst < kMxBytes) return dst;
  uint64_t rest = 0;
  const void* p = reinterpret_cast<const void*>(static_cast<uintptr_t>(dst * 16));
  return OffsetIn(p, side == 0 ? AscendC::TPosition::A2 : AscendC::TPosition::B2, api, &rest) / 16;
}

void SetNzPara(uint64_t config) { Registers("asc_set_gm2l1_nz_para").nz_para = config; }
uint64_t NzPara(const char* api) { return Registers(api).nz_para; }

void RequireZero(const char* api, const char* name, uint64_t value) {
  if (value != 0) {
    Raise(checks::kParams, api,
          std::string(name) + " is " + std::to_string(value) + ": lngrad emulates only 0 here");
  }
}

FixArgs CopyOutArgs(const CopyOut& c, const View** quant) {
  constexpr const char* kApi = "asc_copy_l0c2gm";
  AscendC::DataCopyCO12DstParams p;
  p.nSize = c.n_size;
  p.mSize = c.m_size;
  p.srcStride = c.src_stride;
  p.quantPre = static_cast<QuantMode_t>(c.quant_pre);
  p.reluPre = c.relu_pre;
  p.channelSplit = c.channel_split;
  p.nz2ndEn = c.nz2nd;
  // The intrinsic's NZ dst_stride counts elements (the C++ form's 32-byte blocks times C0):
  // one element stands for the block's 32 bytes when dst_bytes is 32.
  p.dstStride = c.dst_stride;
  FixArgs a = cube::CopyOutArgs(p, 32, true, quant);
  a.api = kApi;
  if (c.nz2dn) {
    RequireZero(kApi, "nz2nd_en with nz2dn_en", c.nz2nd ? 1 : 0);
    a.layout = AscendC::CO2Layout::COLUMN_MAJOR;
  }
  return a;
}

void SetQuantAddress(uint64_t quant_addr, const char* api) {
  const void* p = reinterpret_cast<const void*>(static_cast<uintptr_t>(quant_addr * 128));
  uint64_t rest = 0;
  const uint64_t offset = OffsetIn(p, AscendC::TPosition::C2PIPE2GM, api, &rest);
  aicore::BlockContext& ctx = aicore::RequireBlockContext(api);
  const aicore::LocalMemory mem = aicore::MemoryOf(ctx, AscendC::TPosition::C2PIPE2GM, api);
  SetQuantTensor(
      View{mem.base + offset, rest, mem.base, mem.capacity, AscendC::TPosition::C2PIPE2GM});
}

}  // namespace lngrad::cube::capi
