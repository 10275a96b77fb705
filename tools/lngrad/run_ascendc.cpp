// `lngrad run --impl ascendc`: LayerNormGrad and LayerNormGradBeta as Ascend C kernels on the
// simulated device.
#include "run_ops.h"

namespace lngrad::cli {

// Interim: the operator sample that launches the LayerNormGrad/LayerNormGradBeta kernels on the
// simulated AI cores (tiling from --tmp and --reuse-source, rows split over --blocks) is not in
// the tree yet. Everything before this call (input checks, product support, H alignment) and
// after it (writing the outputs) is in place; this function is the only piece to fill in.
Status RunAscendc(const RunInputs& /*in*/, const RunConfig& /*config*/, RunOutputs* /*out*/) {
  return Status::Unsupported(
      "the Ascend C device path is not available in this build yet (the LayerNormGrad operator "
      "sample is missing); use --impl native");
}

}  // namespace lngrad::cli
