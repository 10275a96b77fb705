# Included by tests/cli/CMakeLists.txt (its functions and variables: CASE, W, C, lngrad_cli_test).
# --- gen -------------------------------------------------------------------------------------
lngrad_cli_test(NAME gen_writes_a_data_set
  EXPECT "wrote 10 files to .*: \\[2,3,32\\] float32, eps 1e-05, seed 42, dist normal:0,2"
  CASE --fresh ${W}/gen1 --exists ${W}/gen1/manifest.json --exists ${W}/gen1/golden_dbeta.npy
       --no-tmp ${W}/gen1
       0 ${LNGRAD_BIN} gen --shape 2,3,32 --seed 42 --dist normal:0,2 --eps 1e-5 --out ${W}/gen1)
lngrad_cli_test(NAME gen_is_deterministic
  CASE --fresh ${W}/gen_det 0 sh -c "'${LNGRAD_BIN}' gen --shape 2,3,32 --seed 9 --out '${W}/gen_det/a' >/dev/null && '${LNGRAD_BIN}' gen --shape 2,3,32 --seed 9 --out '${W}/gen_det/b' >/dev/null && '${LNGRAD_BIN}' gen --shape 2,3,32 --seed 10 --out '${W}/gen_det/c' >/dev/null && cmp '${W}/gen_det/a/dy.npy' '${W}/gen_det/b/dy.npy' && cmp '${W}/gen_det/a/gamma.npy' '${W}/gen_det/b/gamma.npy' && cmp '${W}/gen_det/a/golden_pd_x.npy' '${W}/gen_det/b/golden_pd_x.npy' && cmp '${W}/gen_det/a/manifest.json' '${W}/gen_det/b/manifest.json' && ! cmp -s '${W}/gen_det/a/dy.npy' '${W}/gen_det/c/dy.npy'")
if(LNGRAD_PYTHON_NUMPY)
  # NumPy reads what gen wrote and recomputes every statistic and golden independently.
  foreach(case IN ITEMS "f32;--shape 2,32,16" "f16_bin;--shape 4,8,64 --dtype half --format bin"
                        "f32_normal;--shape 3,5,257 --dist normal:1,3 --eps 1e-5"
                        "f16_randint;--shape 1,3,16 --dtype half --dist randint:-10,10"
                        "bf16_bin;--shape 3,5,257 --dtype bf16 --format bin --dist normal:1,3"
                        "bf16_randint;--shape 2,4,64 --dtype bf16 --format bin --dist randint:-10,10")
    list(GET case 0 tag)
    list(GET case 1 opts)
    separate_arguments(opts)
    add_test(NAME cli.gen_checked_by_numpy_${tag}
             COMMAND sh -c "d=\"$1\"; shift; rm -rf \"$d\" && \"$0\" gen --out \"$d\" \"$@\" >/dev/null && '${LNGRAD_PYTHON_NUMPY}' '${CMAKE_CURRENT_SOURCE_DIR}/check_gen_numpy.py' \"$d\""
                     ${LNGRAD_BIN} ${W}/gen_np_${tag} ${opts})
    set_tests_properties(cli.gen_checked_by_numpy_${tag} PROPERTIES
                         PASS_REGULAR_EXPRESSION "6 passed, 0 failed")
  endforeach()
endif()
if(LNGRAD_PYTHON_NUMPY)
  add_test(NAME cli.gen_json COMMAND sh -c "rm -rf '${W}/gen_json' && '${LNGRAD_BIN}' gen --shape 1,2,16 --dtype half --out '${W}/gen_json' --json | '${LNGRAD_PYTHON_NUMPY}' -c \"
import json, sys
d = json.load(sys.stdin)
assert d['command'] == 'gen' and d['shape'] == [1, 2, 16] and d['dtype'] == 'float16', d
assert len(d['files']) == 10 and d['files'][-1].endswith('manifest.json'), d['files']
print('gen json ok')\"")
  set_tests_properties(cli.gen_json PROPERTIES PASS_REGULAR_EXPRESSION "gen json ok")
endif()
# Refusals: exit 2, a message naming the option, and nothing written.
foreach(case IN ITEMS
    "shape_2d;--shape 2,3;--shape \"2,3\" must have three dimensions B,S,H"
    "shape_zero;--shape 2,0,16;every dimension must be >= 1"
    "shape_text;--shape 2,x,16;\"x\" is not a non-negative integer"
    "shape_huge;--shape 1048576,1048576,2;more than 2\\^40 elements"
    "dtype_int;--shape 2,3,16 --dtype int8;--dtype \"int8\" is not supported"
    "dtype_f64;--shape 2,3,16 --dtype float64;gen writes float, half or bf16"
    "bf16_npy;--shape 2,3,16 --dtype bf16;--dtype bf16 needs --format bin: NumPy's .npy has no bfloat16"
    "dist_name;--shape 2,3,16 --dist poisson;unknown distribution"
    "dist_order;--shape 2,3,16 --dist uniform:5,1;LO must be less than HI"
    "dist_params;--shape 2,3,16 --dist uniform:5;expected two parameters"
    "dist_std;--shape 2,3,16 --dist normal:0,0;standard deviation must be > 0"
    "half_overflow;--shape 2,3,16 --dtype half --dist uniform:-1e6,1e6;beyond the float16 range"
    "half_variance;--shape 2,3,16 --dtype half --dist uniform:-1000,1000;row variance exceeds the float16 range"
    "eps_negative;--shape 2,3,16 --eps -1;--eps must be finite and >= 0"
    "format;--shape 2,3,16 --format csv;--format \"csv\" is not npy or bin")
  list(GET case 0 tag)
  list(GET case 1 opts)
  list(GET case 2 msg)
  separate_arguments(opts)
  lngrad_cli_test(NAME gen_refuses_${tag} EXPECT "lngrad gen: error: .*${msg}"
    CASE --fresh ${W}/gen_bad --absent ${W}/gen_bad 2 ${LNGRAD_BIN} gen ${opts} --out ${W}/gen_bad)
endforeach()
lngrad_cli_test(NAME gen_missing_out CASE 2 ${LNGRAD_BIN} gen --shape 2,3,16)
lngrad_cli_test(NAME gen_missing_shape CASE 2 ${LNGRAD_BIN} gen --out ${W}/never)
lngrad_cli_test(NAME gen_out_is_a_file EXPECT "output directory '.*manifest.json' exists and is not a directory"
  FIXTURES cli_base
  CASE --unchanged ${W}/base 2 ${LNGRAD_BIN} gen --shape 2,3,16 --out ${W}/base/manifest.json)
lngrad_cli_test(NAME gen_out_under_a_file EXPECT "cannot create output directory"
  FIXTURES cli_base
  CASE --unchanged ${W}/base 2 ${LNGRAD_BIN} gen --shape 2,3,16 --out ${W}/base/dy.npy/sub)
# procfs accepts no new files, even from root: the set is abandoned and nothing remains.
lngrad_cli_test(NAME gen_out_unwritable EXPECT "cannot write into output directory '/proc/self'"
  CASE 2 ${LNGRAD_BIN} gen --shape 2,3,16 --out /proc/self)
# A target name taken by a directory: refused before any file is renamed into place.
lngrad_cli_test(NAME gen_target_is_a_directory EXPECT "a directory of that name exists"
  CASE --fresh ${W}/gen_dirclash 0 sh -c "mkdir -p '${W}/gen_dirclash/x.npy' && ! '${LNGRAD_BIN}' gen --shape 2,3,16 --out '${W}/gen_dirclash' && test \"\$(ls -A '${W}/gen_dirclash')\" = x.npy")
lngrad_cli_test(NAME gen_help EXPECT "--dist.*uniform:LO,HI.*--format.*npy or bin" CASE 0 ${LNGRAD_BIN} gen --help)
# Progress: "always" prints plain lines; on a pipe (auto) nothing; on a terminal a line that is
# redrawn with \r and erased at the end (LNGRAD_PROGRESS_DELAY_MS=0: no waiting for a second).
lngrad_cli_test(NAME gen_progress_always EXPECT "lngrad gen: generating inputs .*lngrad gen: computing the golden +[0-9]+% .*lngrad gen: writing files"
  CASE --fresh ${W}/gen_prog 0 ${LNGRAD_BIN} gen --shape 2,3,16 --out ${W}/gen_prog)
set_tests_properties(cli.gen_progress_always PROPERTIES ENVIRONMENT "LNGRAD_PROGRESS=always")
lngrad_cli_test(NAME gen_progress_not_on_a_pipe
  CASE --fresh ${W}/gen_prog2 0 sh -c "'${LNGRAD_BIN}' gen --shape 2,3,16 --out '${W}/gen_prog2' 2>&1 | grep -c 'lngrad gen:' | grep -qx 0")
set_tests_properties(cli.gen_progress_not_on_a_pipe PROPERTIES ENVIRONMENT "LNGRAD_PROGRESS_DELAY_MS=0")
find_program(LNGRAD_SCRIPT script)
if(LNGRAD_SCRIPT)
  lngrad_cli_test(NAME gen_progress_on_a_terminal EXPECT "\rlngrad gen: computing the golden .*\r..Kwrote 10 files"
    CASE --fresh ${W}/gen_tty 0 ${LNGRAD_SCRIPT} -qefc "'${LNGRAD_BIN}' gen --shape 2,3,16 --out '${W}/gen_tty'" /dev/null)
  set_tests_properties(cli.gen_progress_on_a_terminal PROPERTIES ENVIRONMENT "LNGRAD_PROGRESS_DELAY_MS=0")
endif()
