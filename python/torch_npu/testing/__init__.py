"""torch_npu.testing for lngrad's simulated device: the test case the kit's samples use."""
