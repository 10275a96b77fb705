# Included by tests/cli/CMakeLists.txt (its functions and variables: CASE, W, C, lngrad_cli_test).
# --- sample (tools/lngrad/sample.cpp; the LayerNormGrad operator of src/ops) -------------
lngrad_cli_test(NAME sample_default
  EXPECT "float \\[2,32,16\\], epsilon 0.0001, tmp min, isReuseSource false.*\npath: .*simulated Ascend910B1 \\(Atlas A2, arch 2201\\): 1 block.*tmp 6144 B.*\nrule: .*abs err > 0.0001 and rel err > 0.0001.*\noutputPdX +0 of 1024 elements wrong.*\nresForGamma +0 of 1024 elements wrong.*\ntest pass!"
  CASE 0 ${LNGRAD_BIN} sample)
# Each combination must pass the official rule against float64 (half: bound 1e-3).
foreach(case IN ITEMS
    "half_950;--dtype half --soc Ascend950PR_9599 --shape 2,16,64;arch 3510.*0 of 2048 elements wrong"
    "reuse_max_blocks;--reuse-source --tmp max --blocks 3 --shape 4,16,32;3 block\\(s\\).*0 of 2048 elements wrong"
    "bytes_310p;--tmp 8192 --soc Ascend310P1 --shape 2,40,16 --seed 5;arch 2002.*tmp 8192 B.*0 of 1280 elements wrong"
    "half_reuse_a3;--dtype half --reuse-source --soc Ascend910_9391 --shape 1,3,32;Atlas A3.*0 of 96 elements wrong"
    "tiles;--shape 8,100,128 --blocks 2;2 block\\(s\\), [1-9][0-9]* tile\\(s\\).*0 of 102400 elements wrong"
    "single_chunk;--shape 1,4,2048;single-chunk tiling.*0 of 8192 elements wrong"
    "long_rows_950;--shape 1,2,8192 --soc Ascend950PR_9599;arch 3510.*0 of 16384 elements wrong"
    "any_h;--shape 2,5,17 --blocks 2;2 block\\(s\\).*0 of 170 elements wrong"
    "any_h_half_950;--dtype half --shape 1,3,4095 --soc Ascend950PR_9599;arch 3510.*0 of 12285 elements wrong"
    "any_h_1;--shape 1,4,1;0 of 4 elements wrong")
  list(GET case 0 tag)
  list(GET case 1 args)
  list(GET case 2 expect)
  separate_arguments(args)
  lngrad_cli_test(NAME sample_${tag} EXPECT "${expect}.*\ntest pass!" CASE 0 ${LNGRAD_BIN} sample ${args})
endforeach()
foreach(case IN ITEMS
    "shape;--shape 2,32;--shape \"2,32\" must be B,S,H"
    "shape_zero;--shape 2,0,16;must be B,S,H with three positive integers"
    "h_alignment;--shape 2,2,12 --soc Ascend310P1;H = 12 is not a multiple of 8 for float: the operator pads such rows in UB with DataCopyPad, which Ascend310P1 does not have"
    "h_alignment_half;--dtype half --shape 2,2,24 --soc Ascend310P1;H = 24 is not a multiple of 16 for half"
    "soc;--soc Ascend910B;\"Ascend910B\" is not a known SoC name"
    "unsupported_soc;--soc Ascend310B1;LayerNormGrad is not supported on Atlas 200I/500 A2"
    "tmp_word;--tmp lots;--tmp: tmp size \"lots\" must be min, max or a byte count"
    "tmp_small;--tmp 64;stackBufferSize is not enough"
    "tmp_too_big;--tmp 4000000;needs [0-9]+ bytes of UB"
    "row_too_long;--shape 1,1,8192;one row of H = 8192 float needs [0-9]+ bytes of UB")
  list(GET case 0 tag)
  list(GET case 1 args)
  list(GET case 2 msg)
  separate_arguments(args)
  lngrad_cli_test(NAME sample_refuses_${tag} EXPECT "lngrad sample: error: .*${msg}"
    CASE 2 ${LNGRAD_BIN} sample ${args})
endforeach()
lngrad_cli_test(NAME sample_bad_dtype CASE 2 ${LNGRAD_BIN} sample --dtype double)
lngrad_cli_test(NAME sample_bad_blocks CASE 2 ${LNGRAD_BIN} sample --blocks 0)
lngrad_cli_test(NAME sample_help EXPECT "test pass!.*--shape.*--dtype.*--soc.*--reuse-source.*--tmp"
  CASE 0 ${LNGRAD_BIN} sample --help)
# demo runs the documentation example through the operator on the simulated device.
lngrad_cli_test(NAME demo_path
  EXPECT "path: Ascend C LayerNormGrad operator .*simulated Ascend910B1 \\(Atlas A2, arch 2201\\)"
  CASE 0 ${LNGRAD_BIN} demo --quiet)
lngrad_cli_test(NAME demo_950
  EXPECT "simulated Ascend950PR_9599 .*arch 3510.*\noutputPdX.*0 of 64 elements wrong.*\nresForGamma.*0 of 64 elements wrong.*\nrule:.*\nPASS"
  CASE 0 ${LNGRAD_BIN} demo --quiet --soc Ascend950PR_9599)
lngrad_cli_test(NAME demo_native EXPECT "path: native .*\nPASS" CASE 0 ${LNGRAD_BIN} demo --quiet --impl native)
lngrad_cli_test(NAME demo_unsupported_soc EXPECT "not supported on Ascend310B1"
  CASE 1 ${LNGRAD_BIN} demo --quiet --soc Ascend310B1)

# --- messages and the environment (issue 14) -------------------------------------------------
# Parse errors take the documented one-line form; an unknown option comes before a missing
# required one (the misspelt option is usually that one).
foreach(case IN ITEMS
    "unknown_subcommand_form;lngrad: error: unknown subcommand 'frobnicate' \\(the subcommands: demo, sample, gen, run, verify, tiling, socs, sanitize\\). see `lngrad --help`;frobnicate"
    "no_subcommand_form;lngrad: error: a subcommand is required \\(demo, .*\\). see `lngrad --help`;"
    "root_unknown_option;lngrad: error: unknown option '--frob'. see `lngrad --help`;--frob"
    "gen_unknown_before_required;lngrad gen: error: unknown option '--shap'. see `lngrad gen --help`;gen --shap 2,3,16"
    "run_unknown_before_required;lngrad run: error: unknown option '--inn'. see `lngrad run --help`;run --inn x"
    "verify_extra_argument;lngrad verify: error: unexpected argument 'c'. see `lngrad verify --help`;verify a b c"
    "cli11_missing_value;lngrad gen: error: --shape: .*. see `lngrad gen --help`;gen --shape"
    "cli11_required;lngrad gen: error: --out is required. see `lngrad gen --help`;gen --shape 2,3,16"
    "cli11_range;lngrad sample: error: --blocks: .*65535. see `lngrad sample --help`;sample --blocks 0"
    "cli11_choice;lngrad demo: error: --impl: cuda not in .ascendc,native.. see `lngrad demo --help`;demo --impl cuda")
  list(GET case 0 tag)
  list(GET case 1 msg)
  list(GET case 2 args)
  separate_arguments(args)
  # One line and nothing else (CLI11's "Run with --help" second line is gone).
  lngrad_cli_test(NAME msg_${tag} EXPECT "^${msg}\n$" CASE 2 ${LNGRAD_BIN} ${args})
endforeach()

# An environment variable with a bad value: each case "<tag>;<command line>" is the test
# cli.<name>_<tag>, run with ENV (VAR=value) set; it exits 2 with EXPECT (<tag> replaced by the
# case's tag) and leaves DIR absent.
function(lngrad_cli_env_bad name env dir expect)
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 4 ${last})
    set(case "${ARGV${i}}")
    list(GET case 0 tag)
    list(GET case 1 args)
    separate_arguments(args)
    string(REPLACE "<tag>" "${tag}" expect_tag "${expect}")
    lngrad_cli_test(NAME ${name}_${tag}
      EXPECT "${expect_tag}"
      FIXTURES cli_base
      CASE --fresh ${dir} --absent ${dir} 2 ${LNGRAD_BIN} ${args})
    set_tests_properties(cli.${name}_${tag} PROPERTIES ENVIRONMENT "${env}")
  endforeach()
endfunction()

# LNGRAD_SOC: an unknown name is an error wherever it would choose the product.
lngrad_cli_env_bad(env_bad_soc "LNGRAD_SOC=Ascend910b1" ${W}/soc_env_bad
    "^lngrad <tag>: error: LNGRAD_SOC \"Ascend910b1\" is not a known SoC name .*`lngrad socs`.*\n$"
    "run;run --in ${W}/base --out ${W}/soc_env_bad"
    "tiling;tiling --shape 2,32,16"
    "demo;demo --quiet"
    "sample;sample")
# socs still lists the names to choose from, with no current product, then the error.
lngrad_cli_test(NAME env_bad_soc_socs
  EXPECT "Ascend910B1 .*products. current: none .*lngrad socs: error: LNGRAD_SOC \"Ascend910b1\" is not a known SoC name"
  CASE 2 ${LNGRAD_BIN} socs)
set_tests_properties(cli.env_bad_soc_socs PROPERTIES ENVIRONMENT "LNGRAD_SOC=Ascend910b1")
if(LNGRAD_PYTHON_NUMPY)
  add_test(NAME cli.env_bad_soc_socs_json COMMAND sh -c "'${LNGRAD_BIN}' socs --json 2>/dev/null | '${LNGRAD_PYTHON_NUMPY}' -c \"
import json, sys
d = json.load(sys.stdin)
assert d['current'] is None and len(d['products']) >= 50, d['current']
print('socs json without a current product')\"; test $? -eq 0 && ! '${LNGRAD_BIN}' socs --json >/dev/null 2>&1")
  set_tests_properties(cli.env_bad_soc_socs_json PROPERTIES ENVIRONMENT "LNGRAD_SOC=Ascend910b1"
                       PASS_REGULAR_EXPRESSION "socs json without a current product")
endif()
# --soc decides alone: the misspelt variable is not read, so there is no warning either; the
# native path does not read it at all. Each case owns its directory (ctest runs them in parallel).
foreach(case IN ITEMS
    "run_soc;run --in ${W}/base --soc Ascend910B1 --out ${W}/soc_env_ok_run_soc"
    "run_native;run --in ${W}/base --impl native --out ${W}/soc_env_ok_run_native"
    "demo_soc;demo --quiet --soc Ascend910B1"
    "sample_soc;sample --soc Ascend910B1"
    "tiling_soc;tiling --shape 2,32,16 --soc Ascend910B1")
  list(GET case 0 tag)
  list(GET case 1 args)
  separate_arguments(args)
  lngrad_cli_test(NAME env_bad_soc_unused_${tag} FIXTURES cli_base
    CASE --fresh ${W}/soc_env_ok_${tag} 0 ${LNGRAD_BIN} ${args})
  set_tests_properties(cli.env_bad_soc_unused_${tag} PROPERTIES ENVIRONMENT "LNGRAD_SOC=Ascend910b1"
                       FAIL_REGULAR_EXPRESSION "case\\.sh: ;LNGRAD_SOC;warning")
endforeach()
# demo and sample follow LNGRAD_SOC like run and tiling.
lngrad_cli_test(NAME demo_soc_from_env EXPECT "simulated Ascend310P3 \\(Atlas inference series, arch 2002\\).*\nPASS"
  CASE 0 ${LNGRAD_BIN} demo --quiet)
set_tests_properties(cli.demo_soc_from_env PROPERTIES ENVIRONMENT "LNGRAD_SOC=Ascend310P3")
lngrad_cli_test(NAME sample_soc_from_env EXPECT "simulated Ascend950PR_9599 .*arch 3510.*\ntest pass!"
  CASE 0 ${LNGRAD_BIN} sample)
set_tests_properties(cli.sample_soc_from_env PROPERTIES ENVIRONMENT "LNGRAD_SOC=Ascend950PR_9599")
set_tests_properties(cli.sample_default cli.demo_path PROPERTIES
                     ENVIRONMENT_MODIFICATION "LNGRAD_SOC=unset:")
# LNGRAD_IMPL: an unknown value exits 2 on both paths (the native library and the simulated
# core read it), before anything is written.
lngrad_cli_env_bad(env_bad_impl "LNGRAD_IMPL=fast" ${W}/impl_env_bad
    "^lngrad [a-z]+: error: environment variable LNGRAD_IMPL must be auto, simd or scalar \\(got 'fast'\\)\n$"
    "run_native;run --in ${W}/base --impl native --out ${W}/impl_env_bad"
    "run_device;run --in ${W}/base --out ${W}/impl_env_bad"
    "demo_native;demo --quiet --impl native"
    "demo_device;demo --quiet"
    "sample;sample")
# Warnings carry the prefix on stderr and are listed in the JSON report.
lngrad_cli_test(NAME run_warnings_in_json
  EXPECT "lngrad run: warning: --blocks applies to --impl ascendc only. ignored\n.*\"warnings\": \\[\"--blocks applies to --impl ascendc only. ignored\"\\]"
  FIXTURES cli_base
  CASE --fresh ${W}/run_warn 0 ${LNGRAD_BIN} run --in ${W}/base --impl native --blocks 2 --out ${W}/run_warn --json)

# Messages that said the wrong thing: each names the rule that was broken.
foreach(case IN ITEMS
    "gen_shape_20_digits;gen --shape 99999999999999999999,2,8 --out ${W}/msg_bad;--shape \"99999999999999999999,2,8\": dimension \"99999999999999999999\" is too large \\(a tensor has at most 2\\^40 elements\\)"
    "gen_seed_negative;gen --shape 1,2,8 --seed -1 --out ${W}/msg_bad;--seed \"-1\" is not an integer in \\[0, 9223372036854775807\\]"
    "gen_seed_text;gen --shape 1,2,8 --seed abc --out ${W}/msg_bad;--seed \"abc\" is not an integer in \\[0, 9223372036854775807\\]"
    "gen_eps_beyond_float;gen --shape 1,2,8 --eps 1e40 --out ${W}/msg_bad;--eps 1e\\+40 is too large: the kernels take epsilon as a float, so it must be at most 3.40282347e\\+38"
    "gen_eps_beyond_half;gen --shape 1,2,16 --dtype half --eps 1e5 --out ${W}/msg_bad;--eps 1e\\+05 is too large: for half data the device kernels take epsilon as half, so it must be at most 65504"
    "run_eps_beyond_float;run --in ${W}/base --eps 1e40 --out ${W}/msg_bad;--eps 1e\\+40 is too large: the kernels take epsilon as a float"
    "gen_dtype_fp8;gen --shape 1,2,8 --dtype fp8 --out ${W}/msg_bad;--dtype \"fp8\" is not supported: gen writes float, half or bf16 \\(also float32/f4/fp32, float16/f2/fp16, bfloat16\\)"
    "run_dtype_fp8;run --in ${W}/base --dtype fp8 --out ${W}/msg_bad;--dtype \"fp8\" is not supported: run computes in float, half or bf16"
    "verify_missing_out_dir;verify ${W}/nowhere ${W}/base;OUT '.*nowhere' does not exist"
    "verify_missing_golden_dir;verify ${W}/base ${W}/nowhere;GOLDEN '.*nowhere' does not exist")
  list(GET case 0 tag)
  list(GET case 1 args)
  list(GET case 2 msg)
  separate_arguments(args)
  string(REGEX MATCH "^[a-z]+" cmd "${tag}")
  lngrad_cli_test(NAME msg_${tag} EXPECT "^lngrad ${cmd}: error: ${msg}[^\n]*\n$" FIXTURES cli_base
    CASE --fresh ${W}/msg_bad --absent ${W}/msg_bad 2 ${LNGRAD_BIN} ${args})
  # A dtype message must not offer what the command then refuses.
  set_tests_properties(cli.msg_${tag} PROPERTIES FAIL_REGULAR_EXPRESSION "case\\.sh: ;float64")
endforeach()
# A dangling symbolic link as --out: named as such (mkdir would say "File exists"), nothing made.
foreach(case IN ITEMS "gen;--shape 1,2,8" "run;--in ${W}/base --impl native")
  list(GET case 0 cmd)
  list(GET case 1 opts)
  lngrad_cli_test(NAME msg_${cmd}_out_dangling_symlink
    EXPECT "lngrad ${cmd}: error: --out '.*dangling_${cmd}' is a symbolic link to '.*no_such_target_${cmd}', which does not exist"
    FIXTURES cli_base
    CASE 0 sh -c "rm -rf '${W}/dangling_${cmd}' '${W}/no_such_target_${cmd}' && ln -s '${W}/no_such_target_${cmd}' '${W}/dangling_${cmd}' && ${EXPECT_EXIT} 2 '${LNGRAD_BIN}' ${cmd} ${opts} --out '${W}/dangling_${cmd}' && test ! -e '${W}/no_such_target_${cmd}'")
endforeach()
# --json: the documented keys, one type for npu_arch, manifest inputs relative to the manifest.
if(LNGRAD_PYTHON_NUMPY)
  add_test(NAME cli.json_matches_docs
           COMMAND ${LNGRAD_PYTHON_NUMPY} ${CMAKE_CURRENT_SOURCE_DIR}/check_json_docs.py
                   ${LNGRAD_BIN} ${PROJECT_SOURCE_DIR}/docs/cli.md ${W}/json_docs)
  set_tests_properties(cli.json_matches_docs PROPERTIES PASS_REGULAR_EXPRESSION " 0 failed"
                       ENVIRONMENT_MODIFICATION "LNGRAD_SOC=unset:")
endif()
# run --help shows the choices and range of --impl and --blocks as demo and sample do.
lngrad_cli_test(NAME run_help_choices
  EXPECT "--impl TEXT:\\{ascendc,native\\}=ascendc.*--blocks UINT:UINT in \\[1 - 65535\\]=1"
  CASE 0 ${LNGRAD_BIN} run --help)
lngrad_cli_test(NAME demo_sample_help_choices
  EXPECT "--impl TEXT:\\{ascendc,native\\}=ascendc.*--blocks UINT:UINT in \\[1 - 65535\\]=1"
  CASE 0 sh -c "'${LNGRAD_BIN}' demo --help && '${LNGRAD_BIN}' sample --help")
# The README says where the binary is and how to put it on PATH, and the install rule puts
# it where the README says.
add_test(NAME cli.readme_install
  COMMAND sh -c "grep -q 'build/dev/tools/lngrad/lngrad' '${PROJECT_SOURCE_DIR}/README.md' && grep -q 'cmake --install build/dev --prefix ~/.local' '${PROJECT_SOURCE_DIR}/README.md' && rm -rf '${W}/prefix' && cmake --install '${PROJECT_BINARY_DIR}' --prefix '${W}/prefix' --component Unspecified >/dev/null && '${W}/prefix/bin/lngrad' --version")
set_tests_properties(cli.readme_install PROPERTIES PASS_REGULAR_EXPRESSION "^lngrad 0.1.0\n$")
