# Included by tests/cli/CMakeLists.txt (its functions and variables: CASE, W, C, lngrad_cli_test).
# --- socs ------------------------------------------------------------------------------------
lngrad_cli_test(NAME socs_table
  EXPECT "Ascend910B1 +Ascend910B +Atlas A2 +2201 +192 +196544 +yes +yes +yes.*Ascend310B1 .* 3002 +248 +253952 +no +no +no.*Ascend910A .* 1001 +256 .* no +no +no.*Ascend950PR_9599 .* 3510 +248 +253952 +yes +yes +yes.*products. current: Ascend910B1"
  CASE 0 ${LNGRAD_BIN} socs)
set_tests_properties(cli.socs_table PROPERTIES ENVIRONMENT_MODIFICATION "LNGRAD_SOC=unset:")
lngrad_cli_test(NAME socs_current_from_env EXPECT "products. current: Ascend310P3"
  CASE 0 ${LNGRAD_BIN} socs)
set_tests_properties(cli.socs_current_from_env PROPERTIES ENVIRONMENT "LNGRAD_SOC=Ascend310P3")
if(LNGRAD_PYTHON_NUMPY)
  add_test(NAME cli.socs_json COMMAND sh -c "'${LNGRAD_BIN}' socs --json | '${LNGRAD_PYTHON_NUMPY}' -c \"
import json, sys
d = json.load(sys.stdin)
p = {e['soc']: e for e in d['products']}
assert len(p) == len(d['products']) >= 50, len(p)
assert p['Ascend910B1']['npu_arch'] == '2201' and p['Ascend910B1']['ub_bytes'] == 196608
assert p['Ascend310P3']['ub_bytes'] == 262144 and p['Ascend310P3']['supports']['LayerNormGrad']
assert p['Ascend950PR_9599']['npu_arch'] == '3510' and p['Ascend950PR_9599']['ub_bytes'] == 253952
assert not p['Ascend910A']['supports']['LayerNormGradBeta'] and not p['Ascend310B1']['supports']['LayerNorm']
print('socs json ok')\"")
  set_tests_properties(cli.socs_json PROPERTIES PASS_REGULAR_EXPRESSION "socs json ok")
endif()
lngrad_cli_test(NAME socs_bad_flag CASE 2 ${LNGRAD_BIN} socs --frobnicate)

# --- tiling (numbers from the spec's worked examples, §2.7 and §3.6) -------------------------
lngrad_cli_test(NAME tiling_e1_float
  EXPECT "Ascend910B1.*srcShape \\[2,32,16,16\\], float32.*minValue 6144 bytes, maxValue 24576 bytes.*stackBufferSize +6144\n.*oneCalSize +256\n +nohCalSize +16\n +loopNum +4\n.*x3TensorPos +1280\n.*lastDimValueBack +0x3D800000 \\(0.0625\\)\n +lastDimValueBackMulTwo +0x3E000000 \\(0.125\\).*scratch the kernel touches: 6144 bytes\n.*GetLayerNormGradBetaMaxMinTmpSize: minValue 128 bytes, maxValue 8192 bytes.*stackBufferSize +32\n.*loopRound +32\n"
  CASE 0 ${LNGRAD_BIN} tiling --shape 2,32,16 --soc Ascend910B1)
lngrad_cli_test(NAME tiling_e1_float_max_reuse
  EXPECT "minValue 4096 bytes, maxValue 16384 bytes.*stackBufferSize +16384\n.*oneCalSize +1024\n +nohCalSize +64\n +loopNum +1\n"
  CASE 0 ${LNGRAD_BIN} tiling --shape 2,32,16,16 --reuse-source --stack-buffer max)
lngrad_cli_test(NAME tiling_e1_half_overrun
  EXPECT "minValue 4608 bytes, maxValue 18432 bytes.*oneCalSize +256\n +nohCalSize +16\n.*tmpTensor2Pos +2048\n.*scratch the kernel touches: 9216 bytes -- MORE than stackBufferSize.*betaTempTensorPos +16\n +inputDyTmpTensorPos +32\n +resForGammaTmpTensorPos +48\n"
  CASE 0 ${LNGRAD_BIN} tiling --shape 2,32,16 --dtype half)
lngrad_cli_test(NAME tiling_e3_half_bytes
  EXPECT "oneCalSize +2048\n +nohCalSize +32\n +loopNum +2\n.*lastDimValueBack +0x3C800000"
  CASE 0 ${LNGRAD_BIN} tiling --shape 4,16,64,64 --dtype half --stack-buffer 73728)
lngrad_cli_test(NAME tiling_original_h
  EXPECT "originalHLength +12\n.*lastDimValueBack +0x3DAAAAAB.*lastDimValueBackMulTwo +0x3E2AAAAB"
  CASE 0 ${LNGRAD_BIN} tiling --shape 2,32,16,12)
lngrad_cli_test(NAME tiling_3510
  EXPECT "Ascend950PR_9599.*NPU arch 3510.*minValue 128 bytes, maxValue 128 bytes.*oneCalSize +1\n +nohCalSize +1\n +loopNum +1024\n"
  CASE 0 ${LNGRAD_BIN} tiling --shape 2,32,16 --soc Ascend950PR_9599)
lngrad_cli_test(NAME tiling_soc_from_env EXPECT "^Ascend310P3 " CASE 0 ${LNGRAD_BIN} tiling --shape 2,32,16)
set_tests_properties(cli.tiling_soc_from_env PROPERTIES ENVIRONMENT "LNGRAD_SOC=Ascend310P3")
lngrad_cli_test(NAME tiling_unaligned_note EXPECT "note: H is not 32-byte aligned"
  CASE 0 ${LNGRAD_BIN} tiling --shape 2,4,20)
if(LNGRAD_PYTHON_NUMPY)
  add_test(NAME cli.tiling_json COMMAND sh -c "'${LNGRAD_BIN}' tiling --shape 1,8,8 --json | '${LNGRAD_PYTHON_NUMPY}' -c \"
import json, sys
d = json.load(sys.stdin)
g = d['LayerNormGrad']
assert (g['min_tmp_size'], g['max_tmp_size'], g['stack_buffer_bytes']) == (1536, 1536, 1536), g
t = g['tiling']
assert list(t)[:3] == ['stackBufferSize', 'bLength', 'sLength'] and len(t) == 30, list(t)
assert (t['oneCalSize'], t['nohCalSize'], t['loopNum'], t['x3TensorPos']) == (64, 8, 1, 320), t
assert (t['lastDimValueBack'], t['lastDimValueBackMulTwo']) == (0x3E000000, 0x3E800000)
assert not g['scratch_overrun'] and len(d['LayerNormGradBeta']['tiling']) == 20
print('tiling json ok')\"")
  set_tests_properties(cli.tiling_json PROPERTIES PASS_REGULAR_EXPRESSION "tiling json ok")
endif()
# GetLayerNormGradMaxMinTmpSize's minimum for half is smaller than the layout its tiling uses
# (rows per loop rounded up to 16, spec §2.8): E1-half min 4608 B, layout 9216 B. The layouts
# for min and max are printed next to them, with a warning when one is too small.
lngrad_cli_test(NAME tiling_min_too_small_warning
  EXPECT "lngrad tiling: warning: GetLayerNormGradMaxMinTmpSize's minValue \\(4608 bytes\\) is smaller than the scratch layout .*ends at byte 9216\\).*overwrites the 4608 bytes of UB after it.*at least 9216 bytes\n.*minValue 4608 bytes, maxValue 18432 bytes \\(the scratch layouts of their tilings end at byte 9216 and 18432\\)\n"
  CASE 0 ${LNGRAD_BIN} tiling --shape 2,32,16 --dtype half)
# Float E1: both layouts fit, no warning.
lngrad_cli_test(NAME tiling_layouts_fit_no_warning
  EXPECT "minValue 6144 bytes, maxValue 24576 bytes \\(the scratch layouts of their tilings end at byte 6144 and 24576\\)\n"
  CASE 0 ${LNGRAD_BIN} tiling --shape 2,32,16)
set_tests_properties(cli.tiling_layouts_fit_no_warning PROPERTIES FAIL_REGULAR_EXPRESSION "case\\.sh: |warning")
if(LNGRAD_PYTHON_NUMPY)
  # The warnings go to stderr only (stdout stays one JSON document) and into "warnings";
  # [1,8,8] half: both min and max (1152 B) are below the 4608 B layout.
  add_test(NAME cli.tiling_json_tmp_warnings COMMAND ${LNGRAD_PYTHON_NUMPY} -c "
import json, subprocess
def tiling(*args):
    p = subprocess.run(['${LNGRAD_BIN}', 'tiling', '--json', *args], capture_output=True, text=True)
    assert p.returncode == 0, p
    return json.loads(p.stdout), p.stderr
d, err = tiling('--shape', '2,32,16', '--dtype', 'half')
g = d['LayerNormGrad']
assert (g['min_tmp_size'], g['min_tmp_layout_bytes'], g['min_tmp_too_small']) == (4608, 9216, True), g
assert (g['max_tmp_size'], g['max_tmp_layout_bytes']) == (18432, 18432), g
assert len(d['warnings']) == 1 and 'minValue (4608 bytes)' in d['warnings'][0], d['warnings']
assert err == 'lngrad tiling: warning: ' + d['warnings'][0] + '\\n', err
d, err = tiling('--shape', '1,8,8', '--dtype', 'half')
assert len(d['warnings']) == 2 and 'minValue (1152 bytes)' in d['warnings'][0] and 'maxValue (1152 bytes)' in d['warnings'][1], d['warnings']
assert d['LayerNormGrad']['max_tmp_layout_bytes'] == 4608 and err.count('warning:') == 2, err
d, err = tiling('--shape', '2,32,16')
assert d['warnings'] == [] and not d['LayerNormGrad']['min_tmp_too_small'] and err == '', (d, err)
print('tiling json warnings ok')")
  set_tests_properties(cli.tiling_json_tmp_warnings PROPERTIES PASS_REGULAR_EXPRESSION "tiling json warnings ok")
endif()
lngrad_cli_test(NAME tiling_not_enough EXPECT "LayerNormGrad: .*stackBufferSize is not enough"
  CASE 2 ${LNGRAD_BIN} tiling --shape 1,8,8 --stack-buffer 100)
lngrad_cli_test(NAME tiling_unsupported_soc EXPECT "error: LayerNormGrad: .*Ascend910A"
  CASE 2 ${LNGRAD_BIN} tiling --shape 2,32,16 --soc Ascend910A)
lngrad_cli_test(NAME tiling_unknown_soc EXPECT "error: --soc: .*\"NotASoc\" is not a known SoC"
  CASE 2 ${LNGRAD_BIN} tiling --shape 2,32,16 --soc NotASoc)
lngrad_cli_test(NAME tiling_bad_shape EXPECT "error: --shape \"2,32\" must be B,S,H or B,S,H,H0"
  CASE 2 ${LNGRAD_BIN} tiling --shape 2,32)
lngrad_cli_test(NAME tiling_zero_dim EXPECT "error: --shape \"2,0,16\": every dimension must be >= 1"
  CASE 2 ${LNGRAD_BIN} tiling --shape 2,0,16)
lngrad_cli_test(NAME tiling_bad_dtype EXPECT "error: --dtype \"int8\" is not supported"
  CASE 2 ${LNGRAD_BIN} tiling --shape 2,32,16 --dtype int8)
lngrad_cli_test(NAME tiling_bf16_refused
  EXPECT "error: --dtype bf16: the device's LayerNormGrad family takes half or float, not bfloat16 \\(its CPU-debug check: \"template parameter \\(T\\) is not half or float\"\\)"
  CASE 2 ${LNGRAD_BIN} tiling --shape 2,32,16 --dtype bf16)
lngrad_cli_test(NAME tiling_bad_stack EXPECT "error: --stack-buffer .*\"lots\" is not an integer"
  CASE 2 ${LNGRAD_BIN} tiling --shape 2,32,16 --stack-buffer lots)
lngrad_cli_test(NAME tiling_missing_shape CASE 2 ${LNGRAD_BIN} tiling)
