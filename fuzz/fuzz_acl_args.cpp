// libFuzzer target: the ACL runtime's argument handling. Each input is a program of up to 64
// calls of aclrtMalloc/aclrtFree, aclrtMallocHost/aclrtFreeHost, aclrtMemcpy(Async),
// aclrtMemset, aclrtCreateStream/DestroyStream/SynchronizeStream and a one-tile kernel launch,
// with fuzzed sizes, counts, kinds (0..7) and pointers taken from a small pool: live device
// allocations at any offset into them (their red zone included), freed device pointers, host
// buffers, aclrtMallocHost blocks, nullptr; streams live, destroyed or nullptr.
// Invariants (abort on violation; ASan/UBSan watch the memory):
//  - every call returns (no crash, no ASan or UBSan report);
//  - aclrtMalloc: sizes 0 and over 2^47 fail without touching *devPtr; others give 512-byte
//    aligned memory;
//  - a copy or memset that succeeds stayed inside live memory: each device range inside its live
//    allocation, and the bytes are exactly those of memmove/memset (a shadow copy of every
//    object is compared after each call); one that fails changed no byte of any object;
//  - a kernel that writes one tile succeeds exactly when the tile lies inside a live device
//    allocation (checked mode), else (past the end, freed, host memory) its stream reports
//    ACL_ERROR_RT_AICORE_EXCEPTION and no byte changed.
// The runtime's one-line error messages go to stderr; it is muted during each call, so rerun a
// crash with ASAN_OPTIONS=log_path=/tmp/asan UBSAN_OPTIONS=log_path=/tmp/ubsan to see its report.
#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad_acl/launch.h"
#include "lngrad_aicore/gm.h"
#include "lngrad_aicore/sanitizer.h"
#include "write_tile_kernel.h"  // tests/acl

namespace {

using lngrad::acl_test::kTile;
using lngrad::acl_test::kTileValue;
constexpr size_t kHostBytes = 4096;
constexpr size_t kSlots = 6;

int g_saved_stderr = -1;

[[noreturn]] void Fail(const char* what) {
  if (g_saved_stderr >= 0) dup2(g_saved_stderr, 2);
  std::fprintf(stderr, "fuzz_acl_args invariant broken: %s\n", what);
  std::abort();
}

// Mutes stderr (fd 2) for its lifetime.
struct Mute {
  Mute() {
    if (g_saved_stderr < 0) g_saved_stderr = dup(2);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(null);
  }
  ~Mute() { dup2(g_saved_stderr, 2); }
  Mute(const Mute&) = delete;
  Mute& operator=(const Mute&) = delete;
};

// The tile kernel of the memory-guard tests, at offset 0 of z.
__global__ __aicore__ void write_tile(GM_ADDR z) { lngrad::acl_test::WriteTileAt(z, 0); }

// An object a pointer may point into, with the bytes it must hold.
struct Object {
  enum Kind { kNone, kDevice, kFreed, kHost, kHostBlock } kind = kNone;
  uint8_t* p = nullptr;
  size_t size = 0;
  std::vector<uint8_t> shadow;  // live objects only
};

struct World {
  Object dev[kSlots];
  Object host_block[2];
  std::vector<uint8_t> host[2];
  Object host_obj[2];
  aclrtStream streams[3] = {};
  bool stream_live[3] = {};

  World() {
    for (int i = 0; i < 2; ++i) {
      host[i].assign(kHostBytes, static_cast<uint8_t>(0x10 + i));
      host_obj[i] = {Object::kHost, host[i].data(), kHostBytes, host[i]};
    }
  }
  ~World() {
    Mute m;
    for (Object& o : dev) {
      if (o.kind == Object::kDevice) (void)aclrtFree(o.p);
    }
    for (Object& o : host_block) {
      if (o.kind == Object::kHostBlock) (void)aclrtFreeHost(o.p);
    }
    for (int i = 0; i < 3; ++i) {
      if (stream_live[i]) (void)aclrtDestroyStream(streams[i]);
    }
  }

  // Every live object holds what its shadow says.
  void CheckShadows() const {
    for (const Object* o : All()) {
      if (o->kind == Object::kNone || o->kind == Object::kFreed) continue;
      if (std::memcmp(o->p, o->shadow.data(), o->size) != 0) Fail("an object's bytes changed");
    }
  }
  std::vector<const Object*> All() const {
    std::vector<const Object*> r;
    for (const Object& o : dev) r.push_back(&o);
    for (const Object& o : host_block) r.push_back(&o);
    for (const Object& o : host_obj) r.push_back(&o);
    return r;
  }
};

// A pointer from the pool and the object it points into (nullptr: none the fuzzer knows of).
struct Ptr {
  uint8_t* p = nullptr;
  Object* obj = nullptr;
  size_t off = 0;
};

Ptr PickPtr(FuzzedDataProvider& in, World& w) {
  const int which = in.ConsumeIntegralInRange<int>(0, 9);
  Object* o = nullptr;
  if (which == 0) return {};
  if (which <= static_cast<int>(kSlots)) o = &w.dev[which - 1];
  if (which == 7 || which == 8) o = &w.host_obj[which - 7];
  if (which == 9) o = &w.host_block[in.ConsumeBool() ? 1 : 0];
  if (o == nullptr || o->kind == Object::kNone) return {};
  // Device memory: any offset into the allocation's span (past the end: the red zone, never
  // another object's memory). Host memory: inside the object (the runtime cannot bound it).
  const size_t limit = (o->kind == Object::kDevice || o->kind == Object::kFreed)
                           ? lngrad::aicore::detail::GmAllocSpan(o->size) - 1
                           : o->size - 1;
  const size_t off = in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<size_t>(0, limit);
  return {o->p + off, o, off};
}

size_t PickSize(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      return 0;
    case 1:
      return SIZE_MAX - in.ConsumeIntegralInRange<size_t>(0, 1024);
    case 2:
      return (size_t{1} << 47) + in.ConsumeIntegralInRange<size_t>(1, 4096);
    case 3:
      return in.ConsumeIntegralInRange<size_t>(1, 64);
    default:
      return in.ConsumeIntegralInRange<size_t>(1, 8192);
  }
}

// Bytes [off, off + n) fit the live object.
bool Fits(const Ptr& q, size_t n) {
  if (q.obj == nullptr) return false;
  const bool live = q.obj->kind == Object::kDevice || q.obj->kind == Object::kHost ||
                    q.obj->kind == Object::kHostBlock;
  return live && q.off <= q.obj->size && n <= q.obj->size - q.off;
}

// A count that never runs past a host object (the runtime cannot bound host memory, so the
// fuzzer, as a correct caller, does not ask it to).
size_t ClampToHost(size_t count, const Ptr& a, const Ptr& b) {
  for (const Ptr* q : {&a, &b}) {
    if (q->obj != nullptr && q->obj->kind == Object::kHost) {
      count = std::min(count, q->obj->size - q->off);
    }
  }
  return count;
}

void DoMalloc(FuzzedDataProvider& in, World& w) {
  Object& o = w.dev[in.ConsumeIntegralInRange<size_t>(0, kSlots - 1)];
  if (o.kind == Object::kDevice) return;
  const size_t size = PickSize(in);
  void* p = reinterpret_cast<void*>(uintptr_t{8});
  aclError rc;
  {
    Mute m;
    rc = aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST);
  }
  const bool possible = size != 0 && size <= (size_t{1} << 47);
  if ((rc == ACL_SUCCESS) != possible) Fail("aclrtMalloc: success does not match the size");
  if (rc != ACL_SUCCESS) {
    if (p != reinterpret_cast<void*>(uintptr_t{8})) Fail("aclrtMalloc wrote *devPtr on failure");
    return;
  }
  if (reinterpret_cast<uintptr_t>(p) % 512 != 0) Fail("aclrtMalloc: not 512-byte aligned");
  o = {Object::kDevice, static_cast<uint8_t*>(p), size, {}};
  o.shadow.assign(static_cast<uint8_t*>(p), static_cast<uint8_t*>(p) + size);
}

void DoFree(FuzzedDataProvider& in, World& w) {
  const Ptr q = PickPtr(in, w);
  aclError rc;
  {
    Mute m;
    rc = aclrtFree(q.p);
  }
  const bool valid = q.obj != nullptr && q.obj->kind == Object::kDevice && q.off == 0;
  if ((rc == ACL_SUCCESS) != valid) Fail("aclrtFree: success does not match the pointer");
  if (valid) {
    q.obj->kind = Object::kFreed;
    q.obj->shadow.clear();
  }
}

void DoHostBlock(FuzzedDataProvider& in, World& w) {
  Object& o = w.host_block[in.ConsumeBool() ? 1 : 0];
  Mute m;
  if (o.kind == Object::kHostBlock) {
    if (aclrtFreeHost(o.p) != ACL_SUCCESS) Fail("aclrtFreeHost of a live block failed");
    o = {};
    return;
  }
  const size_t size = in.ConsumeIntegralInRange<size_t>(1, 4096);
  void* p = nullptr;
  if (aclrtMallocHost(&p, size) != ACL_SUCCESS) Fail("aclrtMallocHost failed");
  o = {Object::kHostBlock, static_cast<uint8_t*>(p), size, {}};
  std::memset(p, 0x5A, size);
  o.shadow.assign(size, 0x5A);
}

void DoCopy(FuzzedDataProvider& in, World& w) {
  const Ptr dst = PickPtr(in, w);
  const Ptr src = PickPtr(in, w);
  // Kinds 6 and 7 are no kind; values beyond the enum's range (0..7) cannot be passed from C++.
  const int kind = in.ConsumeIntegralInRange<int>(0, 7);
  const size_t count = ClampToHost(PickSize(in), dst, src);
  const size_t dest_max = in.ConsumeBool() ? count : PickSize(in);
  const bool async = in.ConsumeBool();
  aclrtStream stream = w.streams[in.ConsumeIntegralInRange<int>(0, 2)];
  aclrtMemcpyKind k;
  std::memcpy(&k, &kind, sizeof k);
  aclError rc;
  {
    Mute m;
    rc = async ? aclrtMemcpyAsync(dst.p, dest_max, src.p, count, k, stream)
               : aclrtMemcpy(dst.p, dest_max, src.p, count, k);
  }
  if (rc == ACL_SUCCESS && count != 0) {
    if (!Fits(dst, count) || !Fits(src, count)) Fail("a copy outside live memory succeeded");
    if (count > dest_max) Fail("a copy of more than destMax succeeded");
    std::memmove(dst.obj->shadow.data() + dst.off, src.obj->shadow.data() + src.off, count);
  }
  w.CheckShadows();
}

void DoMemset(FuzzedDataProvider& in, World& w) {
  const Ptr dst = PickPtr(in, w);
  const size_t count = ClampToHost(PickSize(in), dst, dst);
  const size_t max_count = in.ConsumeBool() ? count : PickSize(in);
  const int32_t value = in.ConsumeIntegral<int32_t>();
  aclError rc;
  {
    Mute m;
    rc = aclrtMemset(dst.p, max_count, value, count);
  }
  if (rc == ACL_SUCCESS && count != 0) {
    if (!Fits(dst, count) || dst.obj->kind != Object::kDevice) {
      Fail("a memset outside live device memory succeeded");
    }
    std::memset(dst.obj->shadow.data() + dst.off, static_cast<unsigned char>(value), count);
  }
  w.CheckShadows();
}

void DoStream(FuzzedDataProvider& in, World& w) {
  const int i = in.ConsumeIntegralInRange<int>(0, 2);
  Mute m;
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      if (!w.stream_live[i]) {
        if (aclrtCreateStream(&w.streams[i]) != ACL_SUCCESS) Fail("aclrtCreateStream failed");
        w.stream_live[i] = true;
      }
      break;
    case 1: {
      const aclError rc = aclrtDestroyStream(w.streams[i]);
      if (w.stream_live[i] && rc != ACL_SUCCESS) Fail("aclrtDestroyStream of a live stream");
      if (!w.stream_live[i] && rc == ACL_SUCCESS && w.streams[i] != nullptr) {
        Fail("aclrtDestroyStream of a destroyed stream succeeded");
      }
      w.stream_live[i] = false;  // the handle stays, dead
      break;
    }
    default:
      (void)aclrtSynchronizeStream(w.stream_live[i] ? w.streams[i] : nullptr);
      break;
  }
}

void DoLaunch(FuzzedDataProvider& in, World& w) {
  Ptr z = PickPtr(in, w);
  if (z.obj == nullptr) return;
  // Host memory (a host array, an aclrtMallocHost block) is not device memory in a <<<>>>
  // launch: refused like memory outside an allocation, with no byte written.
  const int s = in.ConsumeIntegralInRange<int>(0, 2);
  aclrtStream stream = w.stream_live[s] ? w.streams[s] : nullptr;
  aclError rc;
  {
    Mute m;
    (void)aclrtSynchronizeStream(stream);  // earlier failures of the stream are not this one's
    ::lngrad::acl::LaunchKernel(
        "write_tile", __FILE__, __LINE__, (1), (nullptr), (stream),
        [&](auto&&... lngrad_args) { write_tile(lngrad_args...); }, z.p);
    rc = aclrtSynchronizeStream(stream);
  }
  // GM addresses of a float DataCopy must be 4-byte aligned (gm_alignment, checked mode).
  const bool inside = Fits(z, kTile * sizeof(float)) && z.obj->kind == Object::kDevice &&
                      z.off % sizeof(float) == 0;
  if (inside != (rc == ACL_SUCCESS)) Fail("a kernel's tile: success does not match its place");
  if (!inside && rc != ACL_ERROR_RT_AICORE_EXCEPTION) Fail("a failed kernel: not 507015");
  if (inside) {
    for (uint32_t i = 0; i < kTile; ++i) {
      const float v = kTileValue;
      std::memcpy(z.obj->shadow.data() + z.off + i * sizeof(float), &v, sizeof v);
    }
  }
  w.CheckShadows();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  lngrad::aicore::SetCheckedMode(true);
  lngrad::aicore::san::SetDefaultTools(0);  // the checks alone, whatever LNGRAD_SANITIZE says
  Mute m;
  if (aclrtSetDevice(0) != ACL_SUCCESS) Fail("aclrtSetDevice");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  World w;
  for (int step = 0; step < 64 && in.remaining_bytes() > 0; ++step) {
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:
      case 1:
        DoMalloc(in, w);
        break;
      case 2:
        DoFree(in, w);
        break;
      case 3:
        DoHostBlock(in, w);
        break;
      case 4:
        DoCopy(in, w);
        break;
      case 5:
        DoMemset(in, w);
        break;
      case 6:
        DoStream(in, w);
        break;
      default:
        DoLaunch(in, w);
        break;
    }
  }
  return 0;
}
