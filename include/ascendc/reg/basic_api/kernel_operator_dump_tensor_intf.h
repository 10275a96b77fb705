// lngrad: AscendC::DumpTensor (the vendor's basic_api/kernel_operator_dump_tensor_intf.h): the
// first dumpSize elements of a LocalTensor (UB, L1, L0C, and on the 950 BiasTable and Fixpipe
// Buffer) or GlobalTensor, printed as utils/debug/asc_dump.h prints them:
//   DumpTensor: desc=<desc>, addr=<byte address in its memory>, data_type=<...>,
//   position=<UB, L1, L0C, BIAS, FIXBUF or GM>, dump_size=<dumpSize>
//   [v0, v1, ...]
// The ShapeInfo forms are not provided.
#pragma once

#include <cstdint>

#include "lngrad_aicore/tensor.h"
#include "utils/debug/asc_dump.h"

namespace AscendC {

template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  ::lngrad::reg::detail::DumpMemory<T>(reinterpret_cast<const T*>(tensor.View().ptr), desc,
                                       dumpSize);
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  ::lngrad::reg::detail::DumpMemory<T>(tensor.GetPhyAddr(), desc, dumpSize);
}

}  // namespace AscendC
