// lngrad Ascend C runtime: the pipeline sanitizer (racecheck, initcheck, synccheck).
//
// On the device an AI vector core runs its pipes in parallel: MTE2 (GM -> UB copies), V (vector
// instructions and the high-level APIs), MTE3 (UB -> GM copies) and S (scalar code, tensor
// element access). The simulator runs every block in program order, so a kernel with a missing
// synchronisation or a read of uninitialised UB passes here and fails on the device. When a tool
// is on (LNGRAD_SANITIZE, LaunchOptions::sanitize), every kernel API records what it reads and
// writes, on which pipe, from which source line, and every synchronisation (flags, barriers,
// the TQue framework's EnQue/DeQue and FreeTensor/AllocTensor), and the sanitizer replays the
// device's ordering rules over them (docs/ascendc_compat.md, "The pipeline sanitizer").
//
// Kernel APIs take a trailing `SrcLoc loc = SrcLoc::Current()` argument, so the call site of
// each instruction is known. An API records its accesses through an Instr:
//
//   lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "Add", loc);
//   if (in) { in.Read(src0, bytes); in.Read(src1, bytes); in.Write(dst, bytes); }
//
// The Instr is checked when it goes out of scope (not when an exception leaves the scope: a
// failed instruction did nothing). Without an active tool `in` is false and costs one call.
#pragma once

#include <cstdint>
#include <string>

// sync.h defines these (and includes this header).
enum pipe_t : uint8_t;
namespace AscendC {
enum class HardEvent : uint8_t;
}

namespace lngrad::aicore {

// A kernel API's call site.
struct SrcLoc {
  const char* file = nullptr;
  int line = 0;
  static constexpr SrcLoc Current(const char* f = __builtin_FILE(),
                                  int l = __builtin_LINE()) noexcept {
    return SrcLoc{f, l};
  }
};

// The pipes the sanitizer models: an AI vector core's (S, V, MTE2, MTE3) and the cube's (MTE1:
// L1 -> L0A/L0B/BiasTable, M: Mmad, FIX: L0C -> GM), whose instructions the cube layer records.
enum class Pipe : uint8_t { kS, kV, kMte2, kMte3, kMte1, kM, kFix };
inline constexpr int kPipeCount = 7;
const char* PipeName(Pipe p) noexcept;  // "S", "V", "MTE2", "MTE3", "MTE1", "M", "FIX"

namespace san {

// The tools, as bits (LaunchOptions::sanitize, LNGRAD_SANITIZE).
enum Tool : uint32_t {
  kRacecheck = 1u << 0,
  kInitcheck = 1u << 1,
  kSynccheck = 1u << 2,
  kAllTools = kRacecheck | kInitcheck | kSynccheck,
};
// Parses "racecheck,initcheck,synccheck", "all", "none" or "" (case-sensitive, comma
// separated). Returns false and sets *error for anything else.
bool ParseTools(const std::string& text, uint32_t* tools, std::string* error);
// The tools LNGRAD_SANITIZE asks for (read once; an invalid value is reported on stderr once
// and turns every tool on, so a typo never silences the sanitizer).
uint32_t ToolsFromEnvironment();
std::string ToolsText(uint32_t tools);  // "racecheck,initcheck"
// The tools of launches that do not set LaunchOptions::sanitize: LNGRAD_SANITIZE, unless a
// process-wide override is in force (SetDefaultTools; ClearDefaultTools returns to the
// environment). For programs that must not inherit the environment's choice, e.g. unit tests
// of the simulator itself that set up UB through HostPtr().
uint32_t DefaultTools();
void SetDefaultTools(uint32_t tools);
void ClearDefaultTools();

struct BlockState;

// The running block's sanitizer state; nullptr when no tool is on for it.
BlockState* Active() noexcept;

// One instruction's accesses. Host addresses: inside the running block's UB they are UB bytes,
// anywhere else GM bytes.
class Instr {
 public:
  Instr(Pipe pipe, const char* api, SrcLoc loc) noexcept;
  ~Instr();
  Instr(const Instr&) = delete;
  Instr& operator=(const Instr&) = delete;

  explicit operator bool() const noexcept { return state_ != nullptr; }

  void Read(const void* p, uint64_t bytes);
  // initialises = false: bytes the instruction writes with undefined contents (DataCopyPad's
  // dummy bytes): they race like any write, but initcheck still counts them as unwritten.
  void Write(const void* p, uint64_t bytes, bool initialises = true);
  // Bytes the instruction writes with contents lngrad does not model (a high-level API's
  // scratch, which the device leaves holding its intermediates): they race like any write, and
  // initcheck reports a later read of them, naming the API, until something writes them.
  void WriteUnmodelled(const void* p, uint64_t bytes);
  // count blocks of len bytes, block i at p + i * pitch (pitch: start to start).
  void ReadBlocks(const void* p, uint64_t count, uint64_t len, uint64_t pitch);
  void WriteBlocks(const void* p, uint64_t count, uint64_t len, uint64_t pitch,
                   bool initialises = true);
  // The access belongs to the TQue framework's or the compiler's auto-sync set: an S access
  // that cce-auto-sync orders with V/MTE2/MTE3 (LocalTensor GetValue/SetValue/operator(),
  // GlobalTensor GetValue/operator(); not GlobalTensor::SetValue).
  void AutoSynced() noexcept { auto_synced_ = true; }

 private:
  // count bursts of `bytes` bytes, burst i at p + i * pitch (count 1: one range).
  struct Range {
    const void* p;
    uint64_t bytes;
    uint64_t count;
    uint64_t pitch;
    uint8_t kind;  // 0 read, 1 write, 2 write without initialising, 3 unmodelled write
  };
  void Add(const void* p, uint64_t bytes, uint8_t kind, uint64_t count = 1, uint64_t pitch = 0);

  BlockState* state_ = nullptr;
  Pipe pipe_;
  bool auto_synced_ = false;
  const char* api_;
  SrcLoc loc_;
  int uncaught_ = 0;
  static constexpr int kInline = 8;
  Range inline_[kInline];
  int count_ = 0;
  Range* heap_ = nullptr;  // more ranges than kInline
  int heap_cap_ = 0;
};

// A high-level API call (pipe V, `api` at `loc`) left UB bytes [p, p + bytes) of its scratch
// (sharedTmpBuffer, or the stack buffer of the overloads without it) holding what the device's
// sequence leaves there, which lngrad does not model: one Instr that WriteUnmodelled's them. A
// no-op without an active tool; the callers pass the range the call may write on the device.
void LeaveScratchUnmodelled(const char* api, SrcLoc loc, const void* p, uint64_t bytes);

// Synchronisation events of the running block (no-ops without an active tool).
void SetFlag(AscendC::HardEvent evt, int32_t id, SrcLoc loc);
void WaitFlag(AscendC::HardEvent evt, int32_t id, SrcLoc loc);
void Barrier(pipe_t pipe, SrcLoc loc);
// TPipe event IDs: AllocEventID hands out id (synccheck: exhausted, never released),
// ReleaseEventID returns it.
void AllocEventId(AscendC::HardEvent evt, int32_t id, SrcLoc loc);
void ReleaseEventId(AscendC::HardEvent evt, int32_t id, SrcLoc loc);
// The TQue framework's hidden flags (2201, 2002; and the 950's mutexes): one per (key, id,
// free_event), for a queue buffer and direction. EnQue and FreeTensor signal `evt`; DeQue and the
// next AllocTensor of the buffer wait for it (a wait with nothing signalled does nothing). As the
// hardware flag it is (SetFlag fires once everything its pipe issued before it is complete), a
// wait orders everything the producer pipe issued before the signal against everything the
// waiting pipe issues after the wait: all bytes, not only the buffer's (TBufPool::Reset's waits
// too).
void QueueSignal(const void* key, int32_t id, bool free_event, AscendC::HardEvent evt);
void QueueWait(const void* key, int32_t id, bool free_event);
// The 950's hardware buffer IDs (arch 3510), which its queues synchronise through: every queue
// operation gets and releases the buffer's ID on one pipe (AllocTensor and EnQue on the
// producer pipe of `evt`, the queue's EnQue event; DeQue and FreeTensor on its consumer pipe).
// A get waits for the ID's last release when another pipe released it, and so orders what that
// pipe issued before the release; the release publishes what this pipe issued so far. Pools that
// share buffer IDs (InitBufPool with a shareBuf) share `key` and `id`.
void BufIdSync(const void* key, int32_t id, AscendC::HardEvent evt, bool producer);
// SyncAll: the block's later GM accesses are ordered after every block's earlier ones.
void OnSyncAll();
// Point-to-point order between blocks (IBSet/IBWait, NotifyNextBlock/WaitPreBlock): Release
// publishes under `key` that the block's GM accesses so far (and what it acquired) are done;
// an Acquire of the same key in another block, made after the release in real time (the caller
// waits for it), orders that block's later GM accesses after them. Keys are launch-wide.
void Release(uint64_t key);
void Acquire(uint64_t key);
// CrossCoreSetFlag on `pipe`: the flag goes up once the pipe's earlier work is done. A
// CrossCoreWaitFlag blocks every later instruction until its counter is raised: it orders every
// pipe after the block's own earlier sets (another core's, through Release/Acquire).
void CrossCoreSet(pipe_t pipe);
void CrossCoreWait();
// Another core of the AI core (the AIC's Fixpipe to UB) wrote UB bytes [ub_offset, + bytes) of
// the running block, which has synchronised with it since (CrossCoreWaitFlag): they are
// initialised, and the block's earlier accesses to them are ordered before the write.
void ForeignUbWrite(uint64_t ub_offset, uint64_t bytes);
// The data cache's hand-over between blocks (sanitizer_dcache.cpp; the vendor's
// DataCacheCleanAndInvalid page): a scalar GM store (GlobalTensor::SetValue) waits in the block's
// cache until a clean writes it back, and that clean is a Release of the value it writes; a
// scalar load that reads GM afresh (the line was invalidated since the block last loaded it) is
// an Acquire of the value it sees. DcacheStore: a scalar store of [p, p + bytes).
// DcacheCleanInvalidate: DataCacheCleanAndInvalid of GM, the whole cache or [p, the end of p's
// 64-byte line). DcacheLoad: a scalar load that saw `value` (bytes bytes at p); true when it
// read GM afresh, so it is synchronisation (like ReadGmByPassDCache) and is not recorded.
void DcacheStore(const void* p, uint64_t bytes);
void DcacheCleanInvalidate(const void* p, bool entire);
bool DcacheLoad(const void* p, const void* value, uint64_t bytes);

// Device memory (aclrtMalloc) is not zeroed: initcheck reports kernel reads of bytes that no
// host copy and no kernel wrote. The ACL runtime marks such memory and its writes here.
void GmMarkUninitialised(const void* p, uint64_t bytes);
void GmMarkWritten(const void* p, uint64_t bytes);
void GmForget(const void* p, uint64_t bytes);

}  // namespace san
}  // namespace lngrad::aicore
