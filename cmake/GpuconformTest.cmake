# One place that decides how test binaries become ctest tests and labels.
# Each gtest test runs in its own ctest process, so one GPU fault cannot
# poison the tests after it.

# CPU-only tests: label `unit`, run everywhere (CI included).
function(gpuconform_add_unit_tests target)
  gtest_discover_tests(${target}
    PROPERTIES LABELS "unit" TIMEOUT 300
    DISCOVERY_TIMEOUT 60)
endfunction()

# GPU conformance tests: one ctest label per probe family (one label only:
# gtest discovery cannot pass a list). They run
# serially, because a concurrent test would disturb every timing.
function(gpuconform_add_gpu_tests target)
  foreach(family latency throughput numeric topology)
    string(SUBSTRING "${family}" 0 1 first)
    string(TOUPPER "${first}" first)
    string(SUBSTRING "${family}" 1 -1 rest)
    gtest_discover_tests(${target}
      TEST_FILTER "${first}${rest}.*"
      PROPERTIES LABELS "${family}" RUN_SERIAL TRUE TIMEOUT 600
      DISCOVERY_TIMEOUT 60)
  endforeach()
endfunction()
