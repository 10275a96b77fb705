// Layer simt: the race checker between the threads of a block (racecheck and initcheck for SIMT).
//
// Sources compiled with `lngrad-asc --enable-simt --sanitizer` carry the compiler's
// ThreadSanitizer instrumentation (-fsanitize=thread, without its run-time library): every load,
// store and atomic of the kernel code calls a __tsan_* function, and lngrad_simt defines them
// (tsan_callbacks.cpp) to feed this checker. It runs when such a kernel is launched with the
// racecheck or initcheck tool on (LNGRAD_SANITIZE, `lngrad sanitize`).
//
// Happens-before between the threads of one block, with vector clocks: a thread's accesses are
// ordered after another's when a barrier (asc_syncthreads) lies between them, when they joined
// the same warp function (the lanes of a warp rendezvous), or through atomics on one address
// (each atomic acquires and releases it). Two accesses of one byte by two threads of the block,
// at least one a plain write, neither ordered before the other, are a race; each is reported once
// per pair of code addresses, with both threads' indices and source lines (addr2line, when the
// code has debug information: --sanitizer adds -g). Threads of different blocks are not compared
// (blocks communicate through GM with fences and atomics the checker does not model). Volatile
// accesses are flags (VolatileAccess), fences publish (Fence). initcheck:
// a read of a byte of a block's __ubuf__ array that no thread wrote.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "lngrad_simt/runtime.h"

namespace lngrad::simt::detail {

class RaceChecker {
 public:
  RaceChecker(const BlockInfo& block, bool races, bool init);

  // Only UB and GM bytes are watched: the block's UB and live GM regions (the library's own
  // memory, which the instrumented copies of inline functions may touch, never is either).
  void Access(uint32_t tid, uintptr_t addr, size_t bytes, bool write, const void* pc);
  // A volatile access: never a race (the device's volatile loads and stores are the flags of
  // fence-and-flag publication, like relaxed atomics); a volatile read acquires what the byte's
  // last writer did before its last fence.
  void VolatileAccess(uint32_t tid, uintptr_t addr, size_t bytes, bool write, const void* pc);
  void Atomic(uint32_t tid, uintptr_t addr);
  // asc_threadfence / asc_threadfence_block: what the thread did so far is published.
  void Fence(uint32_t tid);
  // Every thread of the block is ordered after everything before (a barrier); the given threads
  // only (a warp function's lanes, first thread and mask).
  void Barrier();
  void Join(uint32_t first, uint32_t mask);
  // Bytes a block's __ubuf__ array gives out: unwritten until a thread writes them.
  void MarkUnwritten(const void* p, size_t bytes);
  // Raises racecheck / initcheck naming every finding, if there are any (and warns first when
  // the shadow memory's budget left GM bytes unchecked).
  void RaiseFindings() const;
  ~RaceChecker();

 private:
  // The shadow state of the watched bytes, per 4-byte granule: one Cell while the granule's four
  // bytes have the same history (an access that covers the whole granule), four (one per byte)
  // from the first access that covers part of it on. 24 bytes a cell, about 7 bytes of shadow
  // per byte watched, the pages made on first use.
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  static constexpr uint16_t kNoThread = 0xFFFF;
  static constexpr uint16_t kUnwritten = 0xFFFE;  // w_tid of a __ubuf__ byte no thread wrote
  static constexpr size_t kPageBytes = 4096;
  static constexpr size_t kGranule = 4;
  static constexpr size_t kGranules = kPageBytes / kGranule;
  struct Cell {
    uint16_t w_tid = kNoThread, r_tid = kNoThread;  // threads (at most 2048) or the markers
    uint32_t w_clock = 0, r_clock = 0;
    uint32_t w_site = 0, r_site = 0;  // code addresses: indices into sites_
    uint32_t readers = kNone;         // concurrent reads since the write: an index into reads_
  };
  static_assert(sizeof(Cell) == 24);
  struct Read {
    uint32_t tid, clock, site;
  };
  struct Page {
    Page() { split.fill(kNone); }
    std::array<Cell, kGranules> cells;
    std::array<uint32_t, kGranules> split;  // kNone, or the granule's bytes in splits_
  };
  struct Finding {
    std::string kind;  // "write-write", "read-write", "write-read", "uninitialised read"
    uint32_t tid_a, tid_b;
    const void* pc_a;
    const void* pc_b;
    uintptr_t addr;
  };

  uint32_t* Clock(uint32_t tid) { return clocks_.data() + size_t{tid} * threads_; }
  bool Ordered(uint32_t other, uint32_t clock, uint32_t tid) {
    return other >= kUnwritten || other == tid || clock <= Clock(tid)[other];
  }
  // The page of `addr`; nullptr when a GM page would take the shadow past its budget.
  Page* PageAt(uintptr_t addr, bool gm);
  // Calls f(cell, byte address) for the cells of [addr, addr + bytes): a granule's cell, or its
  // bytes' cells when the access covers part of it (splitting it on the way).
  template <typename F>
  void ForCells(uintptr_t addr, size_t bytes, F&& f);
  uint32_t SiteOf(const void* pc);
  void OnByte(Cell& c, uint32_t tid, uint32_t now, uint32_t site, bool write, uintptr_t addr);
  void OnRead(Cell& c, uint32_t tid, uint32_t now, uint32_t site);
  void OnWrite(Cell& c, uint32_t tid, uint32_t now, uint32_t site, uintptr_t addr);
  void Report(const std::string& kind, uint32_t a, uint32_t site_a, uint32_t b, uint32_t site_b,
              uintptr_t addr);
  std::string ThreadText(uint32_t tid) const;
  void WarnUnchecked() const;

  bool InUb(uintptr_t addr) const { return addr >= ub_begin_ && addr < ub_end_; }
  bool Watched(uintptr_t addr) const;

  BlockInfo block_;
  uintptr_t ub_begin_ = 0, ub_end_ = 0;
  uint32_t threads_;
  bool races_;
  bool init_;
  std::vector<uint32_t> clocks_;  // threads x threads: thread t's view of every thread's clock
  std::unordered_map<uintptr_t, std::unique_ptr<Page>> pages_;
  uintptr_t last_page_key_ = ~uintptr_t{0};
  Page* last_page_ = nullptr;
  std::vector<std::array<Cell, kGranule>> splits_;
  std::vector<const void*> sites_{nullptr};  // site 0: no code address
  std::unordered_map<const void*, uint32_t> site_ids_;
  std::array<std::pair<const void*, uint32_t>, 64> site_cache_{};
  size_t shadow_bytes_ = 0;       // this checker's share of the process's shadow memory
  uint64_t unchecked_bytes_ = 0;  // GM bytes accessed after the budget was reached
  std::unordered_map<uintptr_t, std::vector<uint32_t>> sync_;  // per atomic address
  std::vector<std::vector<Read>> reads_;  // read sets of bytes read by concurrent threads
  std::unordered_map<uint32_t, std::vector<uint32_t>> fenced_;  // a thread's clocks at its fence
  std::vector<Finding> findings_;
  size_t dropped_ = 0;
};

// The checker of the block running on this host thread (nullptr: none), and whether any
// instrumented code was loaded (__tsan_init ran).
extern thread_local RaceChecker* t_race;
// Set while the checker itself runs: its own code may call instrumented copies of inline
// functions, whose accesses must not come back to it.
extern thread_local bool t_in_checker;
bool InstrumentedCodeLoaded() noexcept;
void MarkInstrumentedCodeLoaded() noexcept;  // __tsan_init

}  // namespace lngrad::simt::detail
