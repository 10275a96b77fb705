// Layer acl: initialisation, devices, contexts, streams, error messages and the SoC name.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <utility>

#include "lngrad/product.h"
#include "state.h"

namespace lngrad::acl::detail {
namespace {

thread_local Context* t_current = nullptr;
thread_local std::vector<std::string> t_messages;  // oldest first
thread_local std::string t_returned;               // what aclGetRecentErrMsg handed out last
thread_local OrphanError t_orphan;
thread_local aclError t_last_error = ACL_SUCCESS;  // aclrtGetLastError

bool ValidDevice(int32_t id) { return id >= 0 && id < kDeviceCount; }

aclError InvalidDevice(const char* api, int32_t id) {
  return Fail(ACL_ERROR_RT_INVALID_DEVICEID, std::string(api) + ": deviceId " + std::to_string(id) +
                                                 " is not a device; lngrad simulates devices 0.." +
                                                 std::to_string(kDeviceCount - 1));
}

aclError NullArgument(const char* api, const char* arg) {
  return Fail(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + arg + " is nullptr");
}

}  // namespace

State& GetState() {
  static State* s = new State;
  return *s;
}

Context* CurrentContext(State&) {
  return (t_current != nullptr && t_current->alive) ? t_current : nullptr;
}
void SetCurrentContext(Context* c) { t_current = c; }

Context* NewContext(State& s, int32_t device, bool is_default) {
  s.contexts.push_back(std::make_unique<Context>());
  Context* c = s.contexts.back().get();
  c->device = device;
  c->is_default = is_default;
  s.context_handles.insert(c);
  c->default_stream = NewStream(s, c, true);
  return c;
}

Stream* NewStream(State& s, Context* c, bool is_default) {
  s.streams.push_back(std::make_unique<Stream>());
  Stream* st = s.streams.back().get();
  st->context = c;
  st->is_default = is_default;
  s.stream_handles.insert(st);
  return st;
}

void KillContext(State& s, Context* c) {
  c->alive = false;
  for (auto& st : s.streams) {
    if (st->context == c) st->alive = false;
  }
  if (t_current == c) t_current = nullptr;
}

aclError Fail(aclError code, const std::string& message, bool print, bool last_error) {
  const std::string line = message + " (" + ErrorName(code) + " = " + std::to_string(code) + ")";
  // C stdio: usable from static initialisers, before <iostream>'s streams exist.
  if (print) std::fprintf(stderr, "lngrad acl: %s\n", line.c_str());
  t_messages.push_back(line);
  if (last_error) t_last_error = code;
  return code;
}

aclError LastError(const char* api, aclrtLastErrLevel level, bool clear) {
  if (level != ACL_RT_THREAD_LEVEL) {
    // Refused without becoming the last error itself: the recorded one stays.
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(api) + ": level " + std::to_string(static_cast<int>(level)) +
                    " is not ACL_RT_THREAD_LEVEL",
                true, false);
  }
  return clear ? std::exchange(t_last_error, ACL_SUCCESS) : t_last_error;
}

aclError NoteLastError(aclError code) {
  if (code != ACL_SUCCESS) t_last_error = code;
  return code;
}

void AddRecentMessage(const std::string& message) { t_messages.push_back(message); }

OrphanError& ThreadOrphanError() { return t_orphan; }

Stream* ResolveStream(State& s, aclrtStream stream, const char* api, aclError* code, bool print) {
  if (stream == nullptr) {
    Context* c = CurrentContext(s);
    if (c == nullptr) {
      *code = Fail(ACL_ERROR_RT_CONTEXT_NULL,
                   std::string(api) +
                       ": the default stream (stream nullptr) needs a device: call aclrtSetDevice "
                       "first on this thread",
                   print);
      return nullptr;
    }
    return c->default_stream;
  }
  if (s.stream_handles.count(stream) == 0) {
    *code = Fail(ACL_ERROR_RT_PARAM_INVALID,
                 std::string(api) + ": stream " + PtrText(stream) +
                     " is not a stream created by aclrtCreateStream",
                 print);
    return nullptr;
  }
  Stream* st = static_cast<Stream*>(stream);
  if (!st->alive) {
    *code = Fail(ACL_ERROR_RT_PARAM_INVALID,
                 std::string(api) + ": stream " + PtrText(stream) +
                     " was destroyed (aclrtDestroyStream, aclrtDestroyContext or "
                     "aclrtResetDevice)",
                 print);
    return nullptr;
  }
  return st;
}

std::string PtrText(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

const char* ErrorName(aclError code) {
  switch (code) {
    case ACL_SUCCESS:
      return "ACL_SUCCESS";
    case ACL_ERROR_INVALID_PARAM:
      return "ACL_ERROR_INVALID_PARAM";
    case ACL_ERROR_UNINITIALIZE:
      return "ACL_ERROR_UNINITIALIZE";
    case ACL_ERROR_REPEAT_INITIALIZE:
      return "ACL_ERROR_REPEAT_INITIALIZE";
    case ACL_ERROR_INVALID_FILE:
      return "ACL_ERROR_INVALID_FILE";
    case ACL_ERROR_REPEAT_FINALIZE:
      return "ACL_ERROR_REPEAT_FINALIZE";
    case ACL_ERROR_RT_PARAM_INVALID:
      return "ACL_ERROR_RT_PARAM_INVALID";
    case ACL_ERROR_RT_INVALID_DEVICEID:
      return "ACL_ERROR_RT_INVALID_DEVICEID";
    case ACL_ERROR_RT_CONTEXT_NULL:
      return "ACL_ERROR_RT_CONTEXT_NULL";
    case ACL_ERROR_RT_MEMORY_ALLOCATION:
      return "ACL_ERROR_RT_MEMORY_ALLOCATION";
    case ACL_ERROR_RT_INTERNAL_ERROR:
      return "ACL_ERROR_RT_INTERNAL_ERROR";
    case ACL_ERROR_RT_AICORE_EXCEPTION:
      return "ACL_ERROR_RT_AICORE_EXCEPTION";
    default:
      return "aclError";
  }
}

}  // namespace lngrad::acl::detail

using lngrad::acl::detail::Context;
using lngrad::acl::detail::Fail;
using lngrad::acl::detail::GetState;
using lngrad::acl::detail::kDeviceCount;
using lngrad::acl::detail::State;
using lngrad::acl::detail::Stream;

extern "C" {

aclError aclInit(const char* configPath) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (s.initialized) {
    return Fail(ACL_ERROR_REPEAT_INITIALIZE,
                "aclInit: already initialised; call aclFinalize before initialising again");
  }
  if (configPath != nullptr && *configPath != '\0') {
    // The configuration (dump, profiling, error-message mode) has no meaning on the CPU; a path
    // that cannot be read is still the caller's error, as on the device.
    std::FILE* f = std::fopen(configPath, "rb");
    if (f == nullptr) {
      return Fail(ACL_ERROR_INVALID_FILE, std::string("aclInit: configPath \"") + configPath +
                                              "\" cannot be opened: " + std::strerror(errno));
    }
    std::fclose(f);
  }
  s.initialized = true;
  s.finalized = false;
  return ACL_SUCCESS;
}

aclError aclFinalize() {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (!s.initialized) {
    if (s.finalized) {
      return Fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalised");
    }
    return Fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit was not called");
  }
  s.initialized = false;
  s.finalized = true;
  for (auto& [p, bytes] : s.freed_host) std::free(p);
  s.freed_host.clear();
  s.freed_host_bytes = 0;
  return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (!lngrad::acl::detail::ValidDevice(deviceId)) {
    return lngrad::acl::detail::InvalidDevice("aclrtSetDevice", deviceId);
  }
  auto& d = s.devices[deviceId];
  if (d.default_context == nullptr || !d.default_context->alive) {
    d.default_context = lngrad::acl::detail::NewContext(s, deviceId, true);
  }
  ++d.refs;
  lngrad::acl::detail::SetCurrentContext(d.default_context);
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (!lngrad::acl::detail::ValidDevice(deviceId)) {
    return lngrad::acl::detail::InvalidDevice("aclrtResetDevice", deviceId);
  }
  auto& d = s.devices[deviceId];
  if (d.refs == 0) return ACL_SUCCESS;  // nothing to release, as for the vendor's runtime
  if (--d.refs == 0 && d.default_context != nullptr) {
    lngrad::acl::detail::KillContext(s, d.default_context);
    d.default_context = nullptr;
  }
  return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (deviceId == nullptr) return lngrad::acl::detail::NullArgument("aclrtGetDevice", "deviceId");
  Context* c = lngrad::acl::detail::CurrentContext(s);
  if (c == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtGetDevice: no device is set on this thread (aclrtSetDevice)");
  }
  *deviceId = c->device;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (count == nullptr) return lngrad::acl::detail::NullArgument("aclrtGetDeviceCount", "count");
  *count = kDeviceCount;
  return ACL_SUCCESS;
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (context == nullptr) {
    return lngrad::acl::detail::NullArgument("aclrtCreateContext", "context");
  }
  if (!lngrad::acl::detail::ValidDevice(deviceId)) {
    return lngrad::acl::detail::InvalidDevice("aclrtCreateContext", deviceId);
  }
  Context* c = lngrad::acl::detail::NewContext(s, deviceId, false);
  lngrad::acl::detail::SetCurrentContext(c);
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (context == nullptr) {
    return lngrad::acl::detail::NullArgument("aclrtDestroyContext", "context");
  }
  if (s.context_handles.count(context) == 0) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyContext: context " +
                                                lngrad::acl::detail::PtrText(context) +
                                                " is not a context created by aclrtCreateContext");
  }
  Context* c = static_cast<Context*>(context);
  if (!c->alive) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyContext: context " +
                                                lngrad::acl::detail::PtrText(context) +
                                                " was destroyed already");
  }
  if (c->is_default) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "aclrtDestroyContext: context " + lngrad::acl::detail::PtrText(context) +
                    " is the default context of aclrtSetDevice; aclrtResetDevice releases it");
  }
  lngrad::acl::detail::KillContext(s, c);
  return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream* stream) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (stream == nullptr) return lngrad::acl::detail::NullArgument("aclrtCreateStream", "stream");
  Context* c = lngrad::acl::detail::CurrentContext(s);
  if (c == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtCreateStream: no device is set on this thread; call aclrtSetDevice first");
  }
  *stream = lngrad::acl::detail::NewStream(s, c, false);
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (stream == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtDestroyStream: stream is nullptr; it must be a stream from "
                "aclrtCreateStream (the default stream cannot be destroyed)");
  }
  aclError code = ACL_SUCCESS;
  Stream* st = lngrad::acl::detail::ResolveStream(s, stream, "aclrtDestroyStream", &code);
  if (st == nullptr) return code;
  st->alive = false;
  return ACL_SUCCESS;
}

static aclError SynchronizeStreamImpl(aclrtStream stream) {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  auto& orphan = lngrad::acl::detail::ThreadOrphanError();
  aclError code = ACL_SUCCESS;
  Stream* st = lngrad::acl::detail::ResolveStream(s, stream, "aclrtSynchronizeStream", &code);
  // Launches that had no stream to fail are reported by the next synchronisation of the thread.
  if (orphan.code != ACL_SUCCESS) {
    for (const std::string& m : orphan.messages) lngrad::acl::detail::AddRecentMessage(m);
    const aclError first = orphan.code;
    orphan = {};
    if (st != nullptr && st->error != ACL_SUCCESS) {
      for (const std::string& m : st->messages) lngrad::acl::detail::AddRecentMessage(m);
      st->error = ACL_SUCCESS;
      st->messages.clear();
    }
    return first;
  }
  if (st == nullptr) return code;
  if (st->error == ACL_SUCCESS) return ACL_SUCCESS;
  for (const std::string& m : st->messages) lngrad::acl::detail::AddRecentMessage(m);
  code = st->error;
  st->error = ACL_SUCCESS;
  st->messages.clear();
  return code;
}

static aclError SynchronizeDeviceImpl() {
  State& s = GetState();
  std::lock_guard lock(s.mu);
  const Context* current = lngrad::acl::detail::CurrentContext(s);
  if (current == nullptr) {
    return lngrad::acl::detail::Fail(ACL_ERROR_RT_CONTEXT_NULL,
                                     "aclrtSynchronizeDevice: no device is set on this thread: "
                                     "call aclrtSetDevice first");
  }
  aclError first = ACL_SUCCESS;
  auto take = [&first](aclError code, std::vector<std::string>& messages) {
    if (code == ACL_SUCCESS) return;
    for (const std::string& m : messages) lngrad::acl::detail::AddRecentMessage(m);
    messages.clear();
    if (first == ACL_SUCCESS) first = code;
  };
  auto& orphan = lngrad::acl::detail::ThreadOrphanError();
  take(orphan.code, orphan.messages);
  orphan = {};
  for (const auto& st : s.streams) {
    if (!st->alive || st->context == nullptr || st->context->device != current->device) continue;
    take(st->error, st->messages);
    st->error = ACL_SUCCESS;
  }
  return first;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return lngrad::acl::detail::NoteLastError(SynchronizeStreamImpl(stream));
}

aclError aclrtSynchronizeDevice() {
  return lngrad::acl::detail::NoteLastError(SynchronizeDeviceImpl());
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  return lngrad::acl::detail::LastError("aclrtGetLastError", level, true);
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  return lngrad::acl::detail::LastError("aclrtPeekAtLastError", level, false);
}

const char* aclrtGetSocName() { return lngrad::CurrentProduct().soc.data(); }

const char* aclGetRecentErrMsg() {
  auto& msgs = lngrad::acl::detail::t_messages;
  if (msgs.empty()) return nullptr;
  std::string joined;
  for (auto it = msgs.rbegin(); it != msgs.rend(); ++it) {
    if (!joined.empty()) joined += '\n';
    joined += *it;
  }
  msgs.clear();
  lngrad::acl::detail::t_returned = std::move(joined);
  return lngrad::acl::detail::t_returned.c_str();
}

}  // extern "C"
