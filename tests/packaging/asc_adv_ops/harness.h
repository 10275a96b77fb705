// The operator frame of this directory: one kernel template (adv_op<Op>) that copies its GM
// operands into UB, calls Op::Run on them and copies the outputs back, the tiling it reads from
// GM (operand sizes, a few scalars, then the API's own tiling struct computed on the host), and
// the host side: ACL buffers, the launch, float64 references and the bound checks.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace adv_ops {

constexpr uint32_t kMaxIo = 4;

// What every operator gets first in its tiling: the byte size of each UB operand (0: unused)
// and the scalars its API call needs.
struct Head {
  uint32_t inBytes[kMaxIo];
  uint32_t outBytes[kMaxIo];
  uint32_t tmpBytes;
  uint32_t u[7];
  float f[4];
};

struct NoApiTiling {
  uint32_t unused;
};

template <class Api>
struct OpTiling {
  Head head;
  Api api;
};

__aicore__ inline uint32_t Align32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

// Each UB operand starts on a 256-byte boundary (what the strictest API, Sort, asks of its
// operands).
__aicore__ inline uint32_t Slot(uint32_t bytes) { return (bytes + 255) / 256 * 256; }

template <class Api>
struct Io {
  AscendC::LocalTensor<uint8_t> in[kMaxIo];
  AscendC::LocalTensor<uint8_t> out[kMaxIo];
  AscendC::LocalTensor<uint8_t> tmp;
  OpTiling<Api> t;

  template <class T>
  __aicore__ inline AscendC::LocalTensor<T> In(int i) const {
    AscendC::LocalTensor<T> v = in[i].template ReinterpretCast<T>();
    v.SetSize(t.head.inBytes[i] / sizeof(T));
    return v;
  }
  template <class T>
  __aicore__ inline AscendC::LocalTensor<T> Out(int i) const {
    AscendC::LocalTensor<T> v = out[i].template ReinterpretCast<T>();
    v.SetSize(t.head.outBytes[i] / sizeof(T));
    return v;
  }
  __aicore__ inline uint32_t U(int i) const { return t.head.u[i]; }
  __aicore__ inline float F(int i) const { return t.head.f[i]; }
};

template <class Tiling>
__aicore__ inline void CopyTiling(Tiling* tiling, GM_ADDR tilingGm) {
  auto* dst = reinterpret_cast<uint32_t*>(tiling);
  auto* src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  for (uint32_t i = 0; i < sizeof(Tiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

__aicore__ inline void CopyIn(const AscendC::LocalTensor<uint8_t>& dst, GM_ADDR src,
                              uint32_t bytes) {
  AscendC::GlobalTensor<uint8_t> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(src), Align32(bytes));
  AscendC::DataCopy(dst, gm, Align32(bytes));
}

__aicore__ inline void CopyOut(GM_ADDR dst, const AscendC::LocalTensor<uint8_t>& src,
                               uint32_t bytes) {
  AscendC::GlobalTensor<uint8_t> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(dst), Align32(bytes));
  AscendC::DataCopy(gm, src, Align32(bytes));
}

// in0..in3, out0..out3 (outputs are copied in too: some APIs write part of them or work in
// place), then the tiling.
template <class Op>
__global__ __aicore__ void adv_op(GM_ADDR in0, GM_ADDR in1, GM_ADDR in2, GM_ADDR in3, GM_ADDR out0,
                                  GM_ADDR out1, GM_ADDR out2, GM_ADDR out3, GM_ADDR tiling) {
  Io<typename Op::Tiling> io;
  CopyTiling(&io.t, tiling);
  const Head& h = io.t.head;
  GM_ADDR ins[kMaxIo] = {in0, in1, in2, in3};
  GM_ADDR outs[kMaxIo] = {out0, out1, out2, out3};
  uint32_t total = Slot(h.tmpBytes);
  for (uint32_t i = 0; i < kMaxIo; ++i) total += Slot(h.inBytes[i]) + Slot(h.outBytes[i]);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, total);
  AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
  uint32_t offset = 0;
  for (uint32_t i = 0; i < kMaxIo; ++i) {
    if (h.inBytes[i] != 0) {
      io.in[i] = ub[offset];
      offset += Slot(h.inBytes[i]);
      CopyIn(io.in[i], ins[i], h.inBytes[i]);
    }
    if (h.outBytes[i] != 0) {
      io.out[i] = ub[offset];
      offset += Slot(h.outBytes[i]);
      CopyIn(io.out[i], outs[i], h.outBytes[i]);
    }
  }
  if (h.tmpBytes != 0) {
    io.tmp = ub[offset];
    io.tmp.SetSize(h.tmpBytes);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  Op::Run(io);
  AscendC::PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < kMaxIo; ++i) {
    if (h.outBytes[i] != 0) CopyOut(outs[i], io.out[i], h.outBytes[i]);
  }
}

// ---- host ----

using Bytes = std::vector<uint8_t>;
using Launcher = void (*)(uint8_t** args, aclrtStream stream);

struct Case {
  std::string name;
  Bytes in[kMaxIo];
  Bytes out[kMaxIo];  // initial contents (size = output size); the results after Execute
  Bytes tiling;
};

// Head + the API's tiling, as the kernel's OpTiling<Api> lays them out.
template <class Api>
Bytes PackTiling(const Case& c, uint32_t tmpBytes, const std::vector<uint32_t>& u,
                 const std::vector<float>& f, const Api& api) {
  OpTiling<Api> t;
  std::memset(&t, 0, sizeof(t));
  for (uint32_t i = 0; i < kMaxIo; ++i) {
    t.head.inBytes[i] = static_cast<uint32_t>(c.in[i].size());
    t.head.outBytes[i] = static_cast<uint32_t>(c.out[i].size());
  }
  t.head.tmpBytes = tmpBytes;
  for (size_t i = 0; i < u.size(); ++i) t.head.u[i] = u[i];
  for (size_t i = 0; i < f.size(); ++i) t.head.f[i] = f[i];
  t.api = api;
  Bytes b(sizeof(t));
  std::memcpy(b.data(), &t, sizeof(t));
  return b;
}

inline size_t Rounded(size_t bytes) { return (bytes + 31) / 32 * 32 + 32; }

// aclrtMalloc for every operand, copies, the launch, copies back. False when ACL fails.
inline bool Execute(Case& c, Launcher launch, aclrtStream stream) {
  uint8_t* args[2 * kMaxIo + 1] = {};
  std::vector<Bytes*> host;
  for (uint32_t i = 0; i < kMaxIo; ++i) host.push_back(&c.in[i]);
  for (uint32_t i = 0; i < kMaxIo; ++i) host.push_back(&c.out[i]);
  host.push_back(&c.tiling);
  bool ok = true;
  for (size_t i = 0; i < host.size(); ++i) {
    if (host[i]->empty()) continue;
    const size_t size = Rounded(host[i]->size());
    Bytes padded(size, 0);
    std::memcpy(padded.data(), host[i]->data(), host[i]->size());
    ok = ok && aclrtMalloc(reinterpret_cast<void**>(&args[i]), size, ACL_MEM_MALLOC_HUGE_FIRST) ==
                   ACL_SUCCESS;
    ok = ok &&
         aclrtMemcpy(args[i], size, padded.data(), size, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;
  }
  if (ok) launch(args, stream);
  ok = ok && aclrtSynchronizeStream(stream) == ACL_SUCCESS;
  for (uint32_t i = 0; i < kMaxIo; ++i) {
    Bytes& o = c.out[i];
    if (ok && !o.empty()) {
      ok = aclrtMemcpy(o.data(), o.size(), args[kMaxIo + i], o.size(), ACL_MEMCPY_DEVICE_TO_HOST) ==
           ACL_SUCCESS;
    }
  }
  for (uint8_t* a : args) {
    if (a != nullptr) aclrtFree(a);
  }
  if (!ok) std::printf("FAIL %s: ACL error\n", c.name.c_str());
  return ok;
}

// Deterministic inputs in [lo, hi).
inline std::vector<double> Uniform(size_t n, double lo, double hi, uint32_t seed) {
  std::vector<double> v(n);
  uint64_t s = seed * 2654435761ull + 12345;
  for (double& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = lo + (hi - lo) * static_cast<double>(s >> 11) / 9007199254740992.0;
  }
  return v;
}

// Values stored as T (rounded), and the doubles they hold.
template <class T>
Bytes ToBytes(std::vector<double>* values) {
  Bytes b(values->size() * sizeof(T));
  for (size_t i = 0; i < values->size(); ++i) {
    const T t = static_cast<T>(static_cast<float>((*values)[i]));
    std::memcpy(b.data() + i * sizeof(T), &t, sizeof(T));
    (*values)[i] = static_cast<double>(static_cast<float>(t));
  }
  return b;
}

template <class T>
double At(const Bytes& b, size_t i) {
  T t;
  std::memcpy(&t, b.data() + i * sizeof(T), sizeof(T));
  return static_cast<double>(static_cast<float>(t));
}

template <class T>
constexpr double Eps() {
  return sizeof(T) == 2 ? 1.0 / 1024 : 1.0 / 8388608;
}

// Elements where ref is NaN are not checked; tol[i] is the bound of element i. Prints the worst
// error.
// Outputs compared and elements checked so far (main prints them).
inline int checkedOutputs = 0;
inline long checkedElements = 0;

template <class T>
int Expect(const Case& c, int out, const std::vector<double>& ref, const std::vector<double>& tol) {
  ++checkedOutputs;
  double worst = 0;
  size_t worstAt = 0;
  int bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (std::isnan(ref[i])) continue;
    ++checkedElements;
    const double got = At<T>(c.out[out], i);
    const double err = std::fabs(got - ref[i]);
    const bool ok = err <= tol[i];
    if (!ok || std::isnan(got)) ++bad;
    if (!(err <= worst)) {
      worst = err;
      worstAt = i;
    }
  }
  if (bad != 0) {
    std::printf(
        "FAIL %s out%d: %d elements out of bound; worst error %g at %zu (got %.9g, "
        "expected %.9g, bound %g)\n",
        c.name.c_str(), out, bad, worst, worstAt, At<T>(c.out[out], worstAt), ref[worstAt],
        tol[worstAt]);
  }
  return bad != 0 ? 1 : 0;
}

// Bound rel·|ref| + abs.
template <class T>
int Expect(const Case& c, int out, const std::vector<double>& ref, double rel, double abs) {
  std::vector<double> tol(ref.size());
  for (size_t i = 0; i < ref.size(); ++i) tol[i] = rel * std::fabs(ref[i]) + abs;
  return Expect<T>(c, out, ref, tol);
}

template <class T>
const char* TypeName() {
  return sizeof(T) == 2 ? "half" : "float";
}

// The launcher of Op<T, form, flag> for a form chosen at run time (kForms of them); L<Op>::Run
// is the .asc's <<<>>> launch.
template <template <class> class L, template <class, int, bool> class Op, class T, bool kFlag,
          int kForms = 2>
Launcher Form(int form) {
  if constexpr (kForms > 3) {
    if (form == 3) return &L<Op<T, 3, kFlag>>::Run;
  }
  if constexpr (kForms > 2) {
    if (form == 2) return &L<Op<T, 2, kFlag>>::Run;
  }
  if constexpr (kForms > 1) {
    if (form == 1) return &L<Op<T, 1, kFlag>>::Run;
  }
  return &L<Op<T, 0, kFlag>>::Run;
}

// One unit in the last place of r as T stores it.
template <class T>
double Ulp(double r) {
  const int mant = sizeof(T) == 2 ? 10 : 23;
  const int minExp = sizeof(T) == 2 ? -14 : -126;
  const int e = r == 0 ? minExp : std::max(std::ilogb(r), minExp);
  return std::ldexp(1.0, e - mant);
}

// An element-wise operator over n elements of T (one or two inputs in [lo, hi)): u and f are the
// kernel's scalars (u[0] = n is set here), tmpBytes the shared buffer (0: none). ref(x0, x1) is
// the float64 result, bound(x0, x1, ref) the largest error allowed.
using Ref2 = std::function<double(double, double)>;
using Bound2 = std::function<double(double, double, double)>;

template <class T>
int Elementwise(const std::string& name, Launcher launch, aclrtStream stream, uint32_t n,
                int inputs, double lo, double hi, uint32_t tmpBytes, std::vector<float> f,
                const Ref2& ref, const Bound2& bound) {
  Case c;
  c.name = name + "<" + TypeName<T>() + "> n=" + std::to_string(n);
  std::vector<double> x[2];
  for (int i = 0; i < inputs; ++i) {
    x[i] = Uniform(n, lo, hi, 7 + i + n);
    c.in[i] = ToBytes<T>(&x[i]);
  }
  if (inputs < 2) x[1].assign(n, 0.0);
  c.out[0].assign(n * sizeof(T), 0);
  c.tiling = PackTiling(c, tmpBytes, {n}, f, NoApiTiling{});
  if (!Execute(c, launch, stream)) return 1;
  std::vector<double> r(n), tol(n);
  for (uint32_t i = 0; i < n; ++i) {
    r[i] = ref(x[0][i], x[1][i]);
    tol[i] = bound(x[0][i], x[1][i], r[i]);
  }
  return Expect<T>(c, 0, r, tol);
}

}  // namespace adv_ops
