# Included by tests/cli/CMakeLists.txt (its functions and variables: CASE, W, C, lngrad_cli_test).
# --- verify ----------------------------------------------------------------------------------
set(V ${C}/verify)
lngrad_cli_test(NAME verify_identical EXPECT "mismatches: 0 of 12 .*max abs err 0 .*ulp \\(float32\\): max 0, mean 0. exact 12.*\nPASS \\(1 of 1 compared\\)"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/same.npy ${V}/ref.npy)
lngrad_cli_test(NAME verify_one_ulp EXPECT "ulp \\(float32\\): max 1, .*exact 11, 1 ulp 1, 2-4 ulp 0, >4 ulp 0.*\\[1,2\\] +out 0.37500003 +golden 0.375 .*ulp 1\n.*PASS"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/ulp1.npy ${V}/ref.npy)
lngrad_cli_test(NAME verify_one_ulp_fails_with_zero_tolerance EXPECT "mismatches: 1 of 12.*FAIL \\(1 of 1 compared have mismatches\\)"
  FIXTURES cli_cases CASE 1 ${LNGRAD_BIN} verify ${V}/ulp1.npy ${V}/ref.npy --atol 0 --rtol 0)
lngrad_cli_test(NAME verify_mismatch EXPECT "mismatches: 2 of 12 \\(rule ascend: wrong if abs err > 0.0001 and rel err > 0.0001\\)\n +max abs err 0.5 at \\[0,1\\], max rel err 0.148148 at \\[0,1\\].*worst elements:\n +\\[0,1\\] +out -2.875 +golden -3.375 +abs 0.5 .*FAIL\n +\\[2,3\\] .*FAIL\n.*FAIL \\(1 of 1"
  FIXTURES cli_cases CASE 1 ${LNGRAD_BIN} verify ${V}/off.npy ${V}/ref.npy)
lngrad_cli_test(NAME verify_loose_tolerance_passes EXPECT "mismatches: 0 of 12.*PASS"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/off.npy ${V}/ref.npy --atol 0.6)
lngrad_cli_test(NAME verify_ascend_rule_is_and EXPECT "mismatches: 1 of 4 \\(rule ascend"
  FIXTURES cli_cases CASE 1 ${LNGRAD_BIN} verify ${V}/mixed.npy ${V}/ones.npy)
lngrad_cli_test(NAME verify_allclose_rule EXPECT "mismatches: 0 of 4 \\(rule allclose: wrong if abs err > 0.0001 \\+ 0.0001 \\* \\|golden\\|\\)"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/mixed.npy ${V}/ones.npy --rule allclose)
lngrad_cli_test(NAME verify_nan_matches_nan EXPECT "mismatches: 0 of 12.*PASS"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/nan_same.npy ${V}/nan_ref.npy)
lngrad_cli_test(NAME verify_nan_vs_number EXPECT "mismatches: 1 of 12.*1 NaN/inf mismatches.*\\[2,0\\] +out 1.875 +golden nan .*FAIL"
  FIXTURES cli_cases CASE 1 ${LNGRAD_BIN} verify ${V}/nan_vs_num.npy ${V}/nan_ref.npy --atol 1e9 --rtol 1e9)
lngrad_cli_test(NAME verify_half_ulp EXPECT "ulp \\(float16\\): max 1.*PASS"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/half_ulp1.npy ${V}/half_ref.npy --rtol 1e-3)
lngrad_cli_test(NAME verify_bin_flat_against_npy EXPECT "\\[3,4\\] float32 vs float32, 12 elements.*mismatches: 2 of 12"
  FIXTURES cli_cases CASE 1 ${LNGRAD_BIN} verify ${V}/off.bin ${V}/ref.npy --dtype float)
lngrad_cli_test(NAME verify_bin_with_shape EXPECT "\\[2,6\\] float32 .*worst elements:\n +\\[0,1\\] "
  FIXTURES cli_cases CASE 1 ${LNGRAD_BIN} verify ${V}/off.bin ${V}/ref.bin --dtype float --shape 2,6)
lngrad_cli_test(NAME verify_directories EXPECT "pd_x.npy: '.*dir_out/pd_x.npy' vs '.*dir_gold/golden_pd_x.npy'.*PASS \\(1 of 1"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/dir_out ${V}/dir_gold)
lngrad_cli_test(NAME verify_sample_naming EXPECT "outputPdX.bin: '.*sample_out/output_outputPdX.bin' vs '.*sample_gold/golden_outputPdX.bin'.*mismatches: 2 of 12"
  FIXTURES cli_cases CASE 1 ${LNGRAD_BIN} verify ${V}/sample_out ${V}/sample_gold --dtype float)
lngrad_cli_test(NAME verify_gen_dirs_with_manifests EXPECT "pd_x: .*res_for_gamma: .*dgamma: .*dbeta: .*PASS \\(4 of 4 compared\\)"
  FIXTURES cli_base
  CASE 0 sh -c "rm -rf '${W}/ver_run' && '${LNGRAD_BIN}' run --in '${W}/base' --impl native --out '${W}/ver_run' >/dev/null && '${LNGRAD_BIN}' verify '${W}/ver_run' '${W}/base'")
if(LNGRAD_PYTHON_NUMPY)
  add_test(NAME cli.verify_json COMMAND sh -c "'${LNGRAD_BIN}' verify '${V}/off.npy' '${V}/ref.npy' --json --worst 2; test $? -eq 1 && '${LNGRAD_BIN}' verify '${V}/off.npy' '${V}/ref.npy' --json --worst 2 | '${LNGRAD_PYTHON_NUMPY}' -c \"
import json, sys
d = json.load(sys.stdin)
assert d['pass'] is False and d['rule'] == 'ascend' and d['atol'] == 1e-4, d
r = d['results'][0]
assert (r['elements'], r['mismatches'], r['max_abs_index']) == (12, 2, [0, 1]), r
assert len(r['worst']) == 2 and r['worst'][0]['index'] == [0, 1] and r['worst'][0]['fails'], r['worst']
assert r['ulp']['exact'] == 10 and r['ulp']['dtype'] == 'float32', r['ulp']
print('verify json ok')\"")
  set_tests_properties(cli.verify_json PROPERTIES PASS_REGULAR_EXPRESSION "verify json ok"
                       FIXTURES_REQUIRED cli_cases)
endif()
foreach(case IN ITEMS
    "shape;${V}/shape43.npy ${V}/ref.npy;shapes disagree: '.*shape43.npy' is \\[4,3\\] but '.*ref.npy' is \\[3,4\\]"
    "bin_no_dtype;${V}/off.bin ${V}/ref.npy;is a raw file \\(not .npy\\): its dtype is unknown"
    "bin_bad_shape;${V}/off.bin ${V}/ref.bin --dtype float --shape 5,5;size mismatch: shape \\[5,5\\]"
    "missing;${V}/nope.npy ${V}/ref.npy;OUT '.*nope.npy' does not exist"
    "file_and_dir;${V}/ref.npy ${V}/dir_gold;OUT and GOLDEN must both be files or both be directories"
    "no_goldens;${V}/dir_out ${V}/empty;has no golden_\\* files to compare"
    "no_output;${V}/missing_out ${V}/dir_gold;has no output for '.*golden_pd_x.npy'"
    "bad_rule;${V}/ref.npy ${V}/ref.npy --rule exact;--rule \"exact\" is not ascend or allclose"
    "negative_atol;${V}/ref.npy ${V}/ref.npy --atol -1;--atol must be finite and >= 0"
    "malformed;${C}/bad/garbage.npy ${V}/ref.npy;not a .npy file")
  list(GET case 0 tag)
  list(GET case 1 args)
  list(GET case 2 msg)
  separate_arguments(args)
  lngrad_cli_test(NAME verify_refuses_${tag} EXPECT "lngrad verify: error: .*${msg}" FIXTURES cli_cases
    CASE 2 ${LNGRAD_BIN} verify ${args})
endforeach()
# Tolerances follow OUT's dtype (half 1e-3: one half ulp passes), and --atol/--rtol take
# NAME=VALUE for one output, whatever the order of plain and named values.
lngrad_cli_test(NAME verify_half_default_tolerance EXPECT "ulp \\(float16\\): max 1.*rule ascend: wrong if abs err > 0.001 and rel err > 0.001|rule ascend: wrong if abs err > 0.001 and rel err > 0.001.*ulp \\(float16\\): max 1.*PASS"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/half_ulp1.npy ${V}/half_ref.npy)
lngrad_cli_test(NAME verify_half_at_float_tolerance_fails EXPECT "mismatches: 1 of .*FAIL"
  FIXTURES cli_cases CASE 1 ${LNGRAD_BIN} verify ${V}/half_ulp1.npy ${V}/half_ref.npy --atol 1e-4 --rtol 1e-4)
lngrad_cli_test(NAME verify_per_output_tolerance_file EXPECT "mismatches: 0 of 12 \\(rule ascend: wrong if abs err > 0.6 and rel err > 0.0001\\).*PASS"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/off.npy ${V}/ref.npy --atol off=0.6)
lngrad_cli_test(NAME verify_per_output_tolerance_dirs
  EXPECT "pd_x: .*abs err > 0.0001 and rel err > 0.0001.*\n  PASS\nres_for_gamma: .*abs err > 0 and rel err > 0.*\n  FAIL\ndgamma: .*\n  FAIL\ndbeta: .*\n  FAIL\nFAIL \\(3 of 4 compared"
  FIXTURES cli_base
  CASE 1 sh -c "rm -rf '${W}/ver_tol' && '${LNGRAD_BIN}' run --in '${W}/base' --impl native --out '${W}/ver_tol' >/dev/null && '${LNGRAD_BIN}' verify '${W}/ver_tol' '${W}/base' --atol pd_x=1e-4 --atol 0 --rtol 0 --rtol pd_x=1e-4 --no-magnitude --worst 0")
foreach(case IN ITEMS
    "atol_unknown_name;--atol nope=0.6;--atol nope=...: no output named \"nope\" \\(compared: off\\)"
    "atol_not_a_number;--atol off=abc;--atol \"abc\" is not a finite number \\(give --atol 1e-3 for every output, --atol pd_x=1e-3 for one\\)"
    "atol_empty_name;--atol =1;--atol \"=1\": give a value"
    "rtol_negative;--rtol off=-1;--rtol must be finite and >= 0 \\(got \"off=-1\"\\)")
  list(GET case 0 tag)
  list(GET case 1 args)
  list(GET case 2 msg)
  separate_arguments(args)
  lngrad_cli_test(NAME verify_refuses_${tag} EXPECT "lngrad verify: error: .*${msg}" FIXTURES cli_cases
    CASE 2 ${LNGRAD_BIN} verify ${V}/off.npy ${V}/ref.npy ${args})
endforeach()
# Half on every product that has the APIs, at verify's defaults (tests/cli/half_every_product.sh).
add_test(NAME cli.verify_half_every_product
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/half_every_product.sh ${LNGRAD_BIN} ${W}/half_products)
set_tests_properties(cli.verify_half_every_product PROPERTIES
                     PASS_REGULAR_EXPRESSION "all [4-9][0-9] products passed")
# Cancelling outputs ([64,16,4096]: pd_x near 0, dgamma/dbeta over 1024 rows) pass by the
# magnitude rule, need it, and real errors still fail (float and half).
if(LNGRAD_PYTHON_NUMPY)
  add_test(NAME cli.verify_cancelling_outputs
           COMMAND ${LNGRAD_PYTHON_NUMPY} ${CMAKE_CURRENT_SOURCE_DIR}/check_verify_rules.py
                   ${LNGRAD_BIN} ${W}/verify_rules)
  set_tests_properties(cli.verify_cancelling_outputs PROPERTIES
                       PASS_REGULAR_EXPRESSION "20 passed, 0 failed")
endif()
lngrad_cli_test(NAME verify_magnitude_rule_named
  EXPECT "pd_x: .*\n  mismatches: 0 of 128 \\(rule ascend: .*\\)\n  magnitude rule: also right if abs err <= 34 u \\* mag \\+ 1 ulp \\(docs/math.md 6.8\\).*res_for_gamma: [^\n]*\n  mismatches: [^\n]*\n  max abs.*dgamma: .*magnitude rule: also right if abs err <= 11 u \\* mag \\+ sum\\|dy \\* dres\\| \\+ 1 ulp.*dbeta: .*magnitude rule: also right if abs err <= 9 u \\* mag \\+ 1 ulp"
  FIXTURES cli_base
  CASE 0 sh -c "rm -rf '${W}/ver_mag' && '${LNGRAD_BIN}' run --in '${W}/base' --impl native --out '${W}/ver_mag' >/dev/null && '${LNGRAD_BIN}' verify '${W}/ver_mag' '${W}/base'")
lngrad_cli_test(NAME verify_magnitude_needs_the_inputs EXPECT "pd_x.npy: .*magnitude rule: not applied \\(GOLDEN has no manifest.json that lists the inputs \\(see --inputs\\)\\)"
  FIXTURES cli_cases CASE 0 ${LNGRAD_BIN} verify ${V}/dir_out ${V}/dir_gold)

# The vendor samples' names: run --names vendor writes them (raw), verify pairs them with
# gen's goldens (through run's manifest, or by name without one) and with the vendor's own
# golden_outputPdX.bin / golden_output_PdGamma.bin (dtype from OUT's manifest).
lngrad_cli_test(NAME run_names_vendor
  EXPECT "wrote output_outputPdX.bin output_resForGamma.bin output_PdGamma.bin output_PdBeta.bin manifest.json.*\npd_x: '[^']*/output_outputPdX.bin' vs '[^']*/golden_pd_x.npy'.*\ndbeta: '[^']*/output_PdBeta.bin' .*\nPASS \\(4 of 4 compared\\)"
  FIXTURES cli_base
  CASE --fresh ${W}/run_vn --exists ${W}/run_vn/output_resForGamma.bin --exists ${W}/run_vn/output_PdGamma.bin
  0 sh -c "'${LNGRAD_BIN}' run --in '${W}/base' --names vendor --out '${W}/run_vn' && '${LNGRAD_BIN}' verify '${W}/run_vn' '${W}/base'")
lngrad_cli_test(NAME verify_vendor_names_without_manifest
  EXPECT "pd_x: '[^']*/output_outputPdX.bin' .*res_for_gamma: '[^']*/output_resForGamma.bin' .*dgamma: '[^']*/output_PdGamma.bin' .*dbeta: '[^']*/output_PdBeta.bin' .*PASS \\(4 of 4 compared\\)"
  CASE --fresh ${W}/vn_nm 0 sh -c "'${LNGRAD_BIN}' gen --shape 2,8,16 --format bin --out '${W}/vn_nm/g' >/dev/null && '${LNGRAD_BIN}' run --in '${W}/vn_nm/g' --names vendor --out '${W}/vn_nm/o' >/dev/null && rm '${W}/vn_nm/o/manifest.json' && '${LNGRAD_BIN}' verify '${W}/vn_nm/o' '${W}/vn_nm/g'")
lngrad_cli_test(NAME verify_vendor_goldens
  EXPECT "outputPdX.bin: '[^']*/output_outputPdX.bin' vs '[^']*/golden_outputPdX.bin': \\[2,32,16\\] float16 .*mismatches: 0 of 1024.*output_PdGamma.bin: '[^']*/output_PdGamma.bin' vs '[^']*/golden_output_PdGamma.bin'.*PASS \\(2 of 2 compared\\)"
  CASE --fresh ${W}/vn_vg 0 sh -c "'${LNGRAD_BIN}' gen --shape 2,32,16 --dtype half --format bin --out '${W}/vn_vg/g' >/dev/null && mkdir '${W}/vn_vg/vendor' && cp '${W}/vn_vg/g/golden_pd_x.bin' '${W}/vn_vg/vendor/golden_outputPdX.bin' && cp '${W}/vn_vg/g/golden_dgamma.bin' '${W}/vn_vg/vendor/golden_output_PdGamma.bin' && '${LNGRAD_BIN}' run --in '${W}/vn_vg/g' --names vendor --out '${W}/vn_vg/o' >/dev/null && '${LNGRAD_BIN}' verify '${W}/vn_vg/o' '${W}/vn_vg/vendor'")
# The vendor samples' layout: input/input_inputDy.bin ... and output/golden_outputPdX.bin, run
# writing into output/; verify finds the inputs with --inputs (raw, read in OUT's dtype; --eps).
set(VL "mkdir -p '${W}/vn_in/input' '${W}/vn_in/output' && cp '${W}/vn_in/g/dy.bin' '${W}/vn_in/input/input_inputDy.bin' && cp '${W}/vn_in/g/x.bin' '${W}/vn_in/input/input_inputX.bin' && cp '${W}/vn_in/g/mean.bin' '${W}/vn_in/input/input_inputMean.bin' && cp '${W}/vn_in/g/variance.bin' '${W}/vn_in/input/input_inputVariance.bin' && cp '${W}/vn_in/g/gamma.bin' '${W}/vn_in/input/input_inputGamma.bin' && cp '${W}/vn_in/g/golden_pd_x.bin' '${W}/vn_in/output/golden_outputPdX.bin' && cp '${W}/vn_in/g/golden_res_for_gamma.bin' '${W}/vn_in/output/golden_resForGamma.bin'")
lngrad_cli_test(NAME verify_inputs_vendor_layout
  EXPECT "outputPdX.bin: '[^']*/output/output_outputPdX.bin' vs '[^']*/output/golden_outputPdX.bin': \\[2,32,16\\] float32.*magnitude rule: also right if abs err <= 34 u \\* mag \\+ 1 ulp.*resForGamma.bin: .*PASS \\(2 of 2 compared\\)"
  CASE --fresh ${W}/vn_in 0 sh -c "'${LNGRAD_BIN}' gen --shape 2,32,16 --format bin --out '${W}/vn_in/g' >/dev/null && ${VL} && '${LNGRAD_BIN}' run --in '${W}/vn_in/input' --shape 2,32,16 --dtype float --eps 1e-4 --names vendor --out '${W}/vn_in/output' >/dev/null && '${LNGRAD_BIN}' verify '${W}/vn_in/output' '${W}/vn_in/output' --inputs '${W}/vn_in/input' --eps 1e-4")
lngrad_cli_test(NAME verify_inputs_need_eps EXPECT "lngrad verify: error: --eps is required with --inputs '[^']*/input' \\(it has no manifest.json that records it\\)"
  CASE --fresh ${W}/vn_in2 2 sh -c "'${LNGRAD_BIN}' gen --shape 2,32,16 --format bin --out '${W}/vn_in2/g' >/dev/null && mkdir -p '${W}/vn_in2/input' && cp '${W}/vn_in2/g/dy.bin' '${W}/vn_in2/g/x.bin' '${W}/vn_in2/g/mean.bin' '${W}/vn_in2/g/variance.bin' '${W}/vn_in2/g/gamma.bin' '${W}/vn_in2/input/' && '${LNGRAD_BIN}' run --in '${W}/vn_in2/g' --out '${W}/vn_in2/o' >/dev/null && '${LNGRAD_BIN}' verify '${W}/vn_in2/o' '${W}/vn_in2/g' --inputs '${W}/vn_in2/input'")
lngrad_cli_test(NAME verify_inputs_not_a_directory EXPECT "lngrad verify: error: --inputs '[^']*/nope' is not a directory"
  FIXTURES cli_base
  CASE 2 sh -c "rm -rf '${W}/ver_nd' && '${LNGRAD_BIN}' run --in '${W}/base' --impl native --out '${W}/ver_nd' >/dev/null && '${LNGRAD_BIN}' verify '${W}/ver_nd' '${W}/base' --inputs '${W}/nope'")
lngrad_cli_test(NAME run_names_bad EXPECT "lngrad run: error: --names \"samples\" is not lngrad or vendor"
  FIXTURES cli_base
  CASE --fresh ${W}/run_nb --absent ${W}/run_nb 2 ${LNGRAD_BIN} run --in ${W}/base --names samples --out ${W}/run_nb)
lngrad_cli_test(NAME verify_usage CASE 2 ${LNGRAD_BIN} verify only_one_argument)
lngrad_cli_test(NAME verify_help EXPECT "Exit 0: pass. 1: a mismatch. 2: usage or I/O error.*--rule" CASE 0 ${LNGRAD_BIN} verify --help)

# Unit tests of the CLI's own pieces: the float64 golden reference (against tests/oracle) and
# verify's comparison engine.
add_executable(cli_golden_test golden_test.cpp compare_test.cpp)
target_link_libraries(cli_golden_test PRIVATE lngrad_cli_lib lngrad_ops lngrad_oracle lngrad_warnings
                      GTest::gtest_main)
gtest_discover_tests(cli_golden_test TEST_PREFIX "cli.")
