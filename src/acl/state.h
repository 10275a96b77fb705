// Layer acl: the runtime's state (devices, contexts, streams, memory) and its error reporting,
// shared by the ACL functions (runtime.cpp, memory.cpp) and the launcher (launch.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "acl/acl_rt.h"

namespace lngrad::acl::detail {

inline constexpr int32_t kDeviceCount = 8;

struct Context;

// Streams and contexts are never deleted (only marked dead), so a handle never dangles and is
// never reused for another object: a stale handle is recognised.
struct Stream {
  Context* context = nullptr;
  bool alive = true;
  bool is_default = false;
  aclError error = ACL_SUCCESS;       // first failure since the last synchronisation
  std::vector<std::string> messages;  // every failure's message since then
};

struct Context {
  int32_t device = 0;
  bool alive = true;
  bool is_default = false;  // the device's context of aclrtSetDevice
  Stream* default_stream = nullptr;
};

struct Device {
  int32_t refs = 0;  // aclrtSetDevice calls not yet reset
  Context* default_context = nullptr;
};

struct Allocation {
  uint64_t size = 0;
};

struct State {
  std::mutex mu;
  bool initialized = false;
  bool finalized = false;
  Device devices[kDeviceCount];
  std::vector<std::unique_ptr<Context>> contexts;
  std::vector<std::unique_ptr<Stream>> streams;
  std::unordered_set<const void*> context_handles;
  std::unordered_set<const void*> stream_handles;
  std::map<uintptr_t, Allocation> device_memory;       // base -> allocation
  std::map<uintptr_t, Allocation> host_memory;         // live aclrtMallocHost blocks
  std::vector<std::pair<void*, uint64_t>> freed_host;  // kept after aclrtFreeHost, oldest first
  uint64_t freed_host_bytes = 0;
};

// The process-wide state (leaked on purpose: host code may free memory from static destructors).
State& GetState();

// The calling thread's current context, if it is alive. Needs State::mu.
Context* CurrentContext(State& s);
void SetCurrentContext(Context* c);

Context* NewContext(State& s, int32_t device, bool is_default);
Stream* NewStream(State& s, Context* c, bool is_default);
// Marks the context and its streams dead. Needs State::mu.
void KillContext(State& s, Context* c);

// Records a failed call: the message goes to stderr (once, prefixed "lngrad acl: ") when `print`
// and to this thread's messages for aclGetRecentErrMsg. Returns code.
// It also becomes the thread's last error (aclrtGetLastError) when `last_error`.
aclError Fail(aclError code, const std::string& message, bool print = true, bool last_error = true);
// Makes a failed code the thread's last error (aclrtGetLastError); returns code.
aclError NoteLastError(aclError code);
// aclrtGetLastError (clear) and aclrtPeekAtLastError.
aclError LastError(const char* api, aclrtLastErrLevel level, bool clear);
// Adds a message for aclGetRecentErrMsg without printing it (already printed).
void AddRecentMessage(const std::string& message);

// Errors of launches that had no stream to fail (no device set, a dead stream): returned by the
// calling thread's next aclrtSynchronizeStream.
struct OrphanError {
  aclError code = ACL_SUCCESS;
  std::vector<std::string> messages;
};
OrphanError& ThreadOrphanError();

// Resolves a stream argument: nullptr is the current context's default stream. On error, sets
// *code (after Fail) and returns nullptr. Needs State::mu.
Stream* ResolveStream(State& s, aclrtStream stream, const char* api, aclError* code,
                      bool print = true);

// msopprof's record (profiling.cpp): with LNGRAD_OPPROF_OUTPUT set (by lngrad's msopprof), one
// line per launch is appended to that file: the kernel, its blocks, the launch's wall time and the
// description of the calling thread's innermost aclprofRangePushEx range, if any.
void NoteProfiledLaunch(const char* kernel, uint64_t blocks, double micros) noexcept;

std::string PtrText(const void* p);
const char* ErrorName(aclError code);

}  // namespace lngrad::acl::detail
