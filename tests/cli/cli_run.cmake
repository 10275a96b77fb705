# Included by tests/cli/CMakeLists.txt (its functions and variables: CASE, W, C, lngrad_cli_test).
# --- run -------------------------------------------------------------------------------------
# Round trips gen -> run -> verify, on the native path and on the simulated device for several
# products; verify's exit code decides. Tolerances:
#  - float, up to 64 rows: the official sample rule (abs AND rel > 1e-4 is wrong), what a user
#    of the sample would apply.
#  - half: verify's default for half outputs, 1e-3 abs and rel (HALF_TOL is empty: the cases
#    test that default). Output and golden are each rounded once to half from values that
#    differ by the float error of the computation; one half ulp is <= 2^-10 (9.77e-4) of the
#    value, and atol 1e-3 covers elements whose terms cancel to below 1. (Device half runs use
#    one block and shapes that fit one tile: with several tiles LayerNormGradBeta rounds each
#    tile's sums to half, as the device does, which costs more than 1 ulp: docs/cli.md; the
#    magnitude rule of docs/math.md 6.8 allows for it, cli.verify_cancelling_outputs.)
#  - float [8,128,768]: atol 1e-2 = rows (1024) * 2^-24 * max|dy * res_for_gamma| (~173 for
#    uniform(-100,100) data), the float summation bound of dgamma/dbeta over 1024 rows.
#  - H = 1 (native only): pd_x is exactly 0 in float64 (x - mean = 0) while float evaluation
#    leaves the rounding error of two cancelling terms of size |dy * gamma| / sqrt(eps) <= 1e6
#    (float ulp 0.0625): atol 0.25 = 4 such ulps.
set(ROUNDTRIP ${CMAKE_CURRENT_SOURCE_DIR}/roundtrip.sh)
set(HALF_TOL "")
foreach(case IN ITEMS
    "native_f32_2x32x16|--impl native||--shape 2,32,16"
    "native_f32_1x3x8|--impl native||--shape 1,3,8 --seed 3"
    "native_f32_4x16x64_normal|--impl native||--shape 4,16,64 --dist normal:0,1"
    "native_f32_3x5x257_bin|--impl native||--shape 3,5,257 --format bin"
    "native_f32_8x128x768|--impl native|--atol 1e-2|--shape 8,128,768 --seed 11"
    "native_f32_h1|--impl native|--atol 0.25|--shape 1,3,1 --seed 11"
    "native_f16_2x32x16|--impl native|${HALF_TOL}|--shape 2,32,16 --dtype half"
    "native_f16_4x8x64_bin|--impl native|${HALF_TOL}|--shape 4,8,64 --dtype half --format bin"
    "native_f16_3x5x257_randint|--impl native|${HALF_TOL}|--shape 3,5,257 --dtype half --dist randint:-10,10"
    "native_f16_cr_3x5x257|--impl native --half-eval correctly-rounded|${HALF_TOL}|--shape 3,5,257 --dtype half --seed 5"
    "native_bf16_2x32x16|--impl native||--shape 2,32,16 --dtype bf16 --format bin"
    "native_bf16_3x5x257_normal|--impl native||--shape 3,5,257 --dtype bf16 --format bin --dist normal:0,1 --seed 6"
    "native_bf16_8x128x768|--impl native||--shape 8,128,768 --dtype bf16 --format bin --seed 11"
    "ascendc_f32_Ascend910B1|--soc Ascend910B1||--shape 2,32,16"
    "ascendc_f32_Ascend910_9391|--soc Ascend910_9391||--shape 2,32,16 --seed 2"
    "ascendc_f32_Ascend310P3|--soc Ascend310P3||--shape 2,32,16 --seed 3"
    "ascendc_f32_Ascend950PR_9599|--soc Ascend950PR_9599||--shape 2,32,16 --seed 4"
    "ascendc_f32_Ascend350_354f_bin|--soc Ascend350_354f||--shape 2,32,16 --format bin"
    "ascendc_f32_blocks3|--soc Ascend910B1 --blocks 3||--shape 4,16,64 --dist normal:0,1"
    "ascendc_f32_reuse_3510|--soc Ascend950PR_9599 --reuse-source||--shape 4,16,64"
    "ascendc_f32_reuse_2201|--soc Ascend910B1 --reuse-source --blocks 2||--shape 3,5,256"
    "ascendc_f32_tmp_max|--soc Ascend310P3 --tmp max||--shape 4,16,64"
    "ascendc_f32_8x128x768|--soc Ascend910B1 --blocks 4|--atol 1e-2|--shape 8,128,768 --seed 11"
    "ascendc_f16_Ascend910B1|--soc Ascend910B1|${HALF_TOL}|--shape 2,32,16 --dtype half"
    "ascendc_f16_Ascend310P3|--soc Ascend310P3|${HALF_TOL}|--shape 3,5,256 --dtype half"
    "ascendc_f16_Ascend950PR_9599_bin|--soc Ascend950PR_9599|${HALF_TOL}|--shape 2,32,16 --dtype half --format bin")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 tag)
  list(GET fields 1 run_opts)
  list(GET fields 2 verify_opts)
  list(GET fields 3 gen_opts)
  separate_arguments(gen_opts)
  add_test(NAME cli.roundtrip_${tag}
           COMMAND ${ROUNDTRIP} ${LNGRAD_BIN} ${W}/rt_${tag} "${run_opts}" "${verify_opts}" ${gen_opts})
  set_tests_properties(cli.roundtrip_${tag} PROPERTIES
                       PASS_REGULAR_EXPRESSION "\nPASS \\(4 of 4 compared\\)"
                       FAIL_REGULAR_EXPRESSION "FAIL")
endforeach()
# Any H on the device path (issue 17): the operators pad rows that are not 32 bytes long in UB
# (src/ops, "Any H"); verify's default rules against the float64 golden, float and half, both
# algorithms.
foreach(soc IN ITEMS Ascend910B1 Ascend950PR_9599)
  foreach(dtype IN ITEMS float half)
    foreach(h IN ITEMS 1 3 7 17 20 100 1000 4095)
      set(tag ascendc_any_h_${soc}_${dtype}_${h})
      add_test(NAME cli.roundtrip_${tag}
               COMMAND ${ROUNDTRIP} ${LNGRAD_BIN} ${W}/rt_${tag} "--soc ${soc} --blocks 2" ""
                       --shape 2,3,${h} --dtype ${dtype} --seed ${h})
      set_tests_properties(cli.roundtrip_${tag} PROPERTIES
                           PASS_REGULAR_EXPRESSION "\nPASS \\(4 of 4 compared\\)"
                           FAIL_REGULAR_EXPRESSION "FAIL")
    endforeach()
  endforeach()
endforeach()
# Rows are independent on the device: pd_x and res_for_gamma do not depend on how the rows are
# split over blocks (bit for bit).
lngrad_cli_test(NAME run_device_blocks_do_not_change_bits
  EXPECT "pd_x.npy: .*mismatches: 0 of 1024 .*ulp \\(float32\\): max 0.*PASS \\(1 of 1"
  FIXTURES cli_base
  CASE 0 sh -c "rm -rf '${W}/blk' && '${LNGRAD_BIN}' gen --shape 4,16,16 --out '${W}/blk/g' >/dev/null && '${LNGRAD_BIN}' run --in '${W}/blk/g' --blocks 1 --out '${W}/blk/one' >/dev/null && '${LNGRAD_BIN}' run --in '${W}/blk/g' --blocks 5 --out '${W}/blk/five' >/dev/null && '${LNGRAD_BIN}' verify '${W}/blk/five/pd_x.npy' '${W}/blk/one/pd_x.npy' --atol 0 --rtol 0")
# bfloat16: the native path computes it; the device path refuses it as the vendor's kernel does,
# writing nothing.
lngrad_cli_test(NAME run_device_refuses_bf16
  EXPECT "lngrad run: error: the device's LayerNormGrad family takes half or float, not bfloat16"
  CASE --absent ${W}/bf16_dev/out 0 sh -c "rm -rf '${W}/bf16_dev' && '${LNGRAD_BIN}' gen --shape 2,4,16 --dtype bf16 --format bin --out '${W}/bf16_dev/g' >/dev/null && ${EXPECT_EXIT} 2 '${LNGRAD_BIN}' run --in '${W}/bf16_dev/g' --out '${W}/bf16_dev/out'")
lngrad_cli_test(NAME run_device_json EXPECT "\"impl\": \"ascendc\",\n +\"soc\": \"Ascend310P3\",\n +\"npu_arch\": \"2002\".*\"LayerNormGrad\": \\{\n +\"tmp_bytes\": [0-9]+"
  FIXTURES cli_base
  CASE --fresh ${W}/run_dj 0 ${LNGRAD_BIN} run --in ${W}/base --soc Ascend310P3 --out ${W}/run_dj --json)
lngrad_cli_test(NAME run_device_soc_from_env EXPECT "path: impl ascendc, soc Ascend950PR_9599, npu_arch 3510"
  FIXTURES cli_base
  CASE --fresh ${W}/run_env 0 ${LNGRAD_BIN} run --in ${W}/base --out ${W}/run_env)
set_tests_properties(cli.run_device_soc_from_env PROPERTIES ENVIRONMENT "LNGRAD_SOC=Ascend950PR_9599")
lngrad_cli_test(NAME run_device_half_reuse_ignored EXPECT "warning: --reuse-source has no effect for half \\(as on the device\\). ignored.*reuse_source false"
  CASE --fresh ${W}/run_hr 0 sh -c "'${LNGRAD_BIN}' gen --shape 1,2,16 --dtype half --out '${W}/run_hr/g' >/dev/null && '${LNGRAD_BIN}' run --in '${W}/run_hr/g' --reuse-source --out '${W}/run_hr/o'")
# --half-eval: native half only (the report says which evaluation ran), refused when unknown,
# ignored with a warning elsewhere.
lngrad_cli_test(NAME run_half_eval_default_fast EXPECT "\"half_eval\": \"fast\""
  CASE --fresh ${W}/run_he 0 sh -c "'${LNGRAD_BIN}' gen --shape 1,4,16 --dtype half --out '${W}/run_he/g' >/dev/null && '${LNGRAD_BIN}' run --in '${W}/run_he/g' --impl native --out '${W}/run_he/o' --json")
lngrad_cli_test(NAME run_half_eval_correctly_rounded EXPECT "half_eval correctly-rounded"
  CASE --fresh ${W}/run_hc 0 sh -c "'${LNGRAD_BIN}' gen --shape 1,4,16 --dtype half --out '${W}/run_hc/g' >/dev/null && '${LNGRAD_BIN}' run --in '${W}/run_hc/g' --impl native --half-eval correctly-rounded --out '${W}/run_hc/o'")
lngrad_cli_test(NAME run_half_eval_unknown EXPECT "lngrad run: error: --half-eval \"exact\" is not fast or correctly-rounded"
  FIXTURES cli_base
  CASE --fresh ${W}/run_hx --absent ${W}/run_hx 2 ${LNGRAD_BIN} run --in ${W}/base --impl native --half-eval exact --out ${W}/run_hx)
lngrad_cli_test(NAME run_half_eval_ignored_on_device EXPECT "warning: --half-eval applies to --impl native with half data only. ignored"
  FIXTURES cli_base
  CASE --fresh ${W}/run_hd 0 ${LNGRAD_BIN} run --in ${W}/base --half-eval fast --out ${W}/run_hd)
lngrad_cli_test(NAME run_device_tmp_too_small EXPECT "lngrad run: error: .*stackBufferSize is not enough"
  FIXTURES cli_base
  CASE --fresh ${W}/run_bad --absent ${W}/run_bad 1 ${LNGRAD_BIN} run --in ${W}/base --tmp 100 --out ${W}/run_bad)
if(LNGRAD_PYTHON_NUMPY)
  add_test(NAME cli.run_numpy_both_ends
           COMMAND ${LNGRAD_PYTHON_NUMPY} ${CMAKE_CURRENT_SOURCE_DIR}/numpy_roundtrip.py
                   ${LNGRAD_BIN} ${W}/numpy_rt)
  set_tests_properties(cli.run_numpy_both_ends PROPERTIES PASS_REGULAR_EXPRESSION "6 passed, 0 failed")
endif()
lngrad_cli_test(NAME run_json EXPECT "\"command\": \"run\".*\"impl\": \"native\".*\"files\": \\[\"[^\"]*/pd_x.npy\", .*/manifest.json\"\\].*\"warnings\": \\[\\]"
  FIXTURES cli_base
  CASE --fresh ${W}/run_json 0 ${LNGRAD_BIN} run --in ${W}/base --impl native --out ${W}/run_json --json)
lngrad_cli_test(NAME run_writes_manifest EXPECT "\"producer\": \"lngrad run.*\"eps\": 1e-04.*\"res_for_gamma\": \\{\n +\"path\": \"res_for_gamma.npy\""
  FIXTURES cli_base
  CASE --fresh ${W}/run_m 0 sh -c "'${LNGRAD_BIN}' run --in '${W}/base' --impl native --out '${W}/run_m' >/dev/null && cat '${W}/run_m/manifest.json'")
# The .npy inputs of the cases besides dy, for the tests that vary only dy (or one file).
set(NP_BESIDE_DY --x ${C}/np/x.npy --mean ${C}/np/mean.npy --variance ${C}/np/variance.npy
                 --gamma ${C}/np/gamma.npy)
# Inputs as files: NumPy's keepdims statistics ([B,S,1]), raw .bin with --shape/--dtype, the
# official sample's file names.
lngrad_cli_test(NAME run_explicit_npy_files EXPECT "\\[2,4,16\\] float32, eps 0.0001"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_np 0 ${LNGRAD_BIN} run --impl native --eps 1e-4 --out ${W}/run_np
       --dy ${C}/np/dy.npy ${NP_BESIDE_DY})
lngrad_cli_test(NAME run_bin_dir EXPECT "wrote pd_x.bin res_for_gamma.bin dgamma.bin dbeta.bin"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_bin --exists ${W}/run_bin/pd_x.bin
       0 ${LNGRAD_BIN} run --in ${C}/bin --shape 2,4,16 --dtype float --eps 1e-4 --impl native --out ${W}/run_bin)
lngrad_cli_test(NAME run_sample_names EXPECT "\\[2,4,16\\] float32"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_sample 0 ${LNGRAD_BIN} run --in ${C}/sample --shape 2,4,16 --dtype float --eps 1e-4 --impl native --out ${W}/run_sample)
lngrad_cli_test(NAME run_bin_outputs_match_npy
  FIXTURES cli_cases
  CASE 0 sh -c "rm -rf '${W}/run_cmp' && '${LNGRAD_BIN}' run --in '${C}/bin' --shape 2,4,16 --dtype float --eps 1e-4 --impl native --out '${W}/run_cmp/bin' >/dev/null && '${LNGRAD_BIN}' run --in '${C}/np' --eps 1e-4 --impl native --out '${W}/run_cmp/np' >/dev/null && '${LNGRAD_BIN}' verify '${W}/run_cmp/bin/pd_x.bin' '${W}/run_cmp/np/pd_x.npy' --dtype float --atol 0 --rtol 0")
lngrad_cli_test(NAME run_f64_inputs_rounded EXPECT "warning: dy is float64. rounded to float32"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_f64 0 ${LNGRAD_BIN} run --impl native --eps 1e-4 --out ${W}/run_f64
       --dy ${C}/bad/dy_f64.npy ${NP_BESIDE_DY})
lngrad_cli_test(NAME run_nan_reported_and_run EXPECT "warning: dy has 1 NaN and 1 infinite value\\(s\\) \\(first at \\[0,0,5\\]\\)"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_nan --exists ${W}/run_nan/pd_x.npy 0 ${LNGRAD_BIN} run --impl native --eps 1e-4 --out ${W}/run_nan
       --dy ${C}/bad/dy_nan.npy ${NP_BESIDE_DY})
lngrad_cli_test(NAME run_nan_strict EXPECT "non-finite input values and --strict: nothing was computed"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_nan_s --absent ${W}/run_nan_s 2 ${LNGRAD_BIN} run --impl native --eps 1e-4 --strict --out ${W}/run_nan_s
       --dy ${C}/bad/dy_nan.npy ${NP_BESIDE_DY})
lngrad_cli_test(NAME run_native_ignores_device_options EXPECT "warning: --tmp applies to --impl ascendc only. ignored"
  FIXTURES cli_base
  CASE --fresh ${W}/run_ign 0 ${LNGRAD_BIN} run --in ${W}/base --impl native --tmp max --out ${W}/run_ign)
# Bad input files: exit 2, a message naming the file and the rule, no output directory.
foreach(case IN ITEMS
    "garbage;--dy;garbage.npy;garbage.npy': not a .npy file"
    "truncated;--dy;truncated.npy;truncated.npy': truncated data"
    "bigendian;--dy;bigendian.npy;big-endian arrays"
    "fortran;--x;fortran.npy;Fortran-order arrays"
    "int32;--dy;int32.npy;dtype '<i4' is not supported"
    "x_shape;--x;x_shape.npy;shapes disagree: dy .* is \\[2,4,16\\] but x .* is \\[2,4,8\\]"
    "mean_shape;--mean;mean_shape.npy;shapes disagree: mean .* is \\[2,3\\]; for dy \\[2,4,16\\] it must be \\[2,4\\]"
    "gamma_shape;--gamma;gamma_shape.npy;shapes disagree: gamma .* is \\[8\\]; .* must be \\[16\\]"
    "dtype_mix;--x;x_half.npy;dtypes disagree: x .* is float16 but dy is float32"
    "missing;--variance;no_such_file.npy;cannot open .*no_such_file.npy': No such file"
    "directory;--gamma;.;bad/.' is not a regular file \\(it is a directory\\)")
  list(GET case 0 tag)
  list(GET case 1 opt)
  list(GET case 2 file)
  list(GET case 3 msg)
  set(files --dy ${C}/np/dy.npy ${NP_BESIDE_DY})
  list(FIND files ${opt} i)
  math(EXPR i "${i} + 1")
  list(REMOVE_AT files ${i})
  list(INSERT files ${i} ${C}/bad/${file})
  lngrad_cli_test(NAME run_refuses_${tag} EXPECT "lngrad run: error: .*${msg}" FIXTURES cli_cases
    CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 ${LNGRAD_BIN} run --impl native --eps 1e-4 ${files} --out ${W}/run_bad)
endforeach()
lngrad_cli_test(NAME run_refuses_bin_size EXPECT "short.bin': size mismatch: shape \\[2,4,16\\] of float32 needs 512 bytes, the file has 508"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 ${LNGRAD_BIN} run --impl native --eps 1e-4 --shape 2,4,16 --dtype float
       --dy ${C}/bad/short.bin --x ${C}/bin/x.bin --mean ${C}/bin/mean.bin --variance ${C}/bin/variance.bin
       --gamma ${C}/bin/gamma.bin --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_bin_without_shape EXPECT "is a raw file \\(not .npy\\): its shape is unknown. give --shape B,S,H and --dtype"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 ${LNGRAD_BIN} run --in ${C}/bin --dtype float --eps 1e-4 --impl native --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_shape_option_mismatch EXPECT "shapes disagree: --shape \\[2,4,32\\] but dy"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 ${LNGRAD_BIN} run --in ${C}/np --shape 2,4,32 --eps 1e-4 --impl native --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_missing_eps EXPECT "--eps is required"
  FIXTURES cli_cases
  CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 ${LNGRAD_BIN} run --in ${C}/np --impl native --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_negative_eps EXPECT "--eps must be finite and >= 0"
  FIXTURES cli_base
  CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 ${LNGRAD_BIN} run --in ${W}/base --eps -0.5 --impl native --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_no_inputs EXPECT "give the inputs: --in DIR, or --dy --x --mean --variance --gamma"
  CASE 2 ${LNGRAD_BIN} run --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_in_and_files EXPECT "--in DIR and the per-file options \\(--dy ...\\) exclude each other"
  FIXTURES cli_base
  CASE 2 ${LNGRAD_BIN} run --in ${W}/base --dy ${W}/base/dy.npy --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_partial_files EXPECT "--gamma is required when --in is not given"
  FIXTURES cli_base
  CASE 2 ${LNGRAD_BIN} run --dy ${W}/base/dy.npy --x ${W}/base/x.npy --mean ${W}/base/mean.npy --variance ${W}/base/variance.npy --eps 1e-4 --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_missing_dir EXPECT "--in '.*nowhere' is not a directory"
  CASE 2 ${LNGRAD_BIN} run --in ${W}/nowhere --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_incomplete_dir EXPECT "has no dy.npy, dy.bin or input_inputDy.bin \\(and no manifest.json\\)"
  FIXTURES cli_cases
  CASE 2 ${LNGRAD_BIN} run --in ${C}/verify --eps 1e-4 --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_bad_impl EXPECT "--impl \"cuda\" is not ascendc or native"
  FIXTURES cli_base CASE 2 ${LNGRAD_BIN} run --in ${W}/base --impl cuda --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_bad_tmp EXPECT "--tmp \\(min, max or a byte count\\) \"lots\" is not an integer"
  FIXTURES cli_base CASE 2 ${LNGRAD_BIN} run --in ${W}/base --tmp lots --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_zero_blocks EXPECT "--blocks must be in \\[1, 65535\\]"
  FIXTURES cli_base CASE 2 ${LNGRAD_BIN} run --in ${W}/base --blocks 0 --out ${W}/run_bad)
lngrad_cli_test(NAME run_refuses_unknown_soc EXPECT "--soc \"Ascend999\" is not a known SoC name \\(see `lngrad socs`\\)"
  FIXTURES cli_base CASE 2 ${LNGRAD_BIN} run --in ${W}/base --soc Ascend999 --out ${W}/run_bad)
lngrad_cli_test(NAME run_out_unwritable EXPECT "cannot write into output directory '/proc/self'"
  FIXTURES cli_base CASE 2 ${LNGRAD_BIN} run --in ${W}/base --impl native --out /proc/self)
lngrad_cli_test(NAME run_out_is_a_file EXPECT "exists and is not a directory"
  FIXTURES cli_base CASE --unchanged ${W}/base 2 ${LNGRAD_BIN} run --in ${W}/base --impl native --out ${W}/base/dy.npy)
lngrad_cli_test(NAME run_output_clash_leaves_old_files EXPECT "a directory of that name exists"
  FIXTURES cli_base
  CASE 0 sh -c "rm -rf '${W}/run_clash' && mkdir -p '${W}/run_clash/dbeta.npy' && echo old > '${W}/run_clash/pd_x.npy' && ! '${LNGRAD_BIN}' run --in '${W}/base' --impl native --out '${W}/run_clash' && test \"\$(cat '${W}/run_clash/pd_x.npy')\" = old && test \"\$(ls -A '${W}/run_clash' | tr '\\n' ' ')\" = 'dbeta.npy pd_x.npy '")
# Output directories never lose data (docs/cli.md, "Output files"): run into its own input
# directory, a directory of another data set, an output path that is an input, the directory
# lock (a holder, and two concurrent runs), SIGINT/SIGTERM mid-write, a failing write, and a
# shape too large for memory. Each case runs real processes (output_dirs.sh).
set(OUTPUT_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/output_dirs.sh)
find_program(LNGRAD_FLOCK flock)
set(_output_dir_cases run_into_its_input_dir run_refuses_another_data_set gen_refuses_run_outputs
    output_is_an_input concurrent_runs signals write_failure memory commit_killed
    stale_temporaries names_switch readers_lock)
if(LNGRAD_FLOCK)
  list(APPEND _output_dir_cases lock_waits)
endif()
foreach(c IN LISTS _output_dir_cases)
  add_test(NAME cli.output_dirs_${c} COMMAND ${OUTPUT_DIRS} ${LNGRAD_BIN} ${W}/od_${c} ${c})
  set_tests_properties(cli.output_dirs_${c} PROPERTIES
                       PASS_REGULAR_EXPRESSION "output_dirs ${c}: ok"
                       FAIL_REGULAR_EXPRESSION "output_dirs: ")
endforeach()
# Inputs that are refused with a message naming the rule (issue 27): a manifest whose eps is
# not a number, an empty --eps (as gen's), a tiling shape whose B*S*H*H0 overflows, a manifest
# entry that disagrees with the .npy header it lists.
lngrad_cli_test(NAME run_refuses_a_manifest_eps_that_is_not_a_number
  EXPECT "run: error: '[^']*/run_eps_str/manifest.json': \"eps\" must be a number, not \"1e-4\""
  FIXTURES cli_base
  CASE 2 sh -c "rm -rf '${W}/run_eps_str' && cp -r '${W}/base' '${W}/run_eps_str' && sed -i 's/\"eps\": [^,]*,/\"eps\": \"1e-4\",/' '${W}/run_eps_str/manifest.json' && exec '${LNGRAD_BIN}' run --in '${W}/run_eps_str' --impl native --out '${W}/run_eps_str_out'")
lngrad_cli_test(NAME run_refuses_an_empty_eps EXPECT "run: error: --eps \"\" is not a finite number"
  FIXTURES cli_base
  CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 sh -c "exec '${LNGRAD_BIN}' run --in '${W}/base' --eps '' --impl native --out '${W}/run_bad'")
lngrad_cli_test(NAME verify_refuses_an_empty_eps EXPECT "verify: error: --eps \"\" is not a finite number"
  FIXTURES cli_base
  CASE 2 sh -c "exec '${LNGRAD_BIN}' verify '${W}/base' '${W}/base' --eps ''")
lngrad_cli_test(NAME tiling_refuses_a_shape_product_that_overflows
  EXPECT "tiling: error: --shape \\[1,1,4294967296,4294967296\\]: B\\*S\\*H\\*H0 overflows"
  CASE 2 ${LNGRAD_BIN} tiling --shape 1,1,4294967296)
lngrad_cli_test(NAME run_refuses_a_manifest_that_disagrees_with_the_npy_header
  EXPECT "run: error: '[^']*/run_npy_dtype/dy.npy' is float32 \\[2,4,16\\] but '[^']*/run_npy_dtype/manifest.json' lists it as float16 \\[2,4,16\\]"
  FIXTURES cli_base
  CASE 2 sh -c "rm -rf '${W}/run_npy_dtype' && cp -r '${W}/base' '${W}/run_npy_dtype' && awk '/\"dtype\": \"float32\"/ && ++n == 2 { sub(/float32/, \"float16\") } 1' '${W}/base/manifest.json' > '${W}/run_npy_dtype/manifest.json' && exec '${LNGRAD_BIN}' run --in '${W}/run_npy_dtype' --impl native --out '${W}/run_npy_dtype_out'")
# The device path's own rules, checked before anything runs (default --impl ascendc): any H
# where the operators can pad rows with DataCopyPad, aligned H on the Atlas inference series.
lngrad_cli_test(NAME run_device_needs_aligned_h_without_datacopypad
  EXPECT "H = 20 is not 32-byte aligned for float32 \\(H \\* 4 = 80 bytes\\): the operators pad such rows in UB with DataCopyPad, which Ascend310P3 \\(.*\\) does not have; use H a multiple of 8, a product with DataCopyPad .*or --impl native"
  FIXTURES cli_base_h20
  CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 ${LNGRAD_BIN} run --in ${W}/base_h20 --soc Ascend310P3 --out ${W}/run_bad)
foreach(soc IN ITEMS Ascend910B1 Ascend950PR_9599)
  lngrad_cli_test(NAME run_device_takes_unaligned_h_${soc}
    EXPECT "\\[2,4,20\\] float32.*path: impl ascendc, soc ${soc}"
    FIXTURES cli_base_h20
    CASE --fresh ${W}/run_h20_${soc} 0 ${LNGRAD_BIN} run --in ${W}/base_h20 --soc ${soc} --out ${W}/run_h20_${soc})
endforeach()
foreach(soc IN ITEMS Ascend910A Ascend310B1)
  lngrad_cli_test(NAME run_device_unsupported_${soc}
    EXPECT "LayerNormGrad is not supported on ${soc} \\(.*NPU arch [0-9]+\\). see `lngrad socs`"
    FIXTURES cli_base
    CASE --fresh ${W}/run_bad --absent ${W}/run_bad 2 ${LNGRAD_BIN} run --in ${W}/base --soc ${soc} --out ${W}/run_bad)
endforeach()
lngrad_cli_test(NAME run_native_takes_unaligned_h EXPECT "\\[2,4,20\\] float32"
  FIXTURES cli_base_h20
  CASE --fresh ${W}/run_h20 0 ${LNGRAD_BIN} run --in ${W}/base_h20 --impl native --out ${W}/run_h20)
lngrad_cli_test(NAME run_help EXPECT "--in.*--dy.*--eps.*--soc.*--impl.*--reuse-source.*--tmp.*--blocks.*--strict.*--out.*--json"
  CASE 0 ${LNGRAD_BIN} run --help)
