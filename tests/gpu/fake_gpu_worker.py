#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A stand-in for `gpuconform_gpu_tests worker` with no GPU, for the CPU test of that
binary's executor (gtest_isolation.sh, through GPUCONFORM_GPU_TESTS_FAKE_WORKER). It speaks
the runner's protocol (harness/runner/include/gpuconform/runner_protocol.hpp) on
--report-fd, as the real worker does, and answers the self-test probes as they behave on a
GPU:

  selftest.hang             never finishes
  selftest.illegal_address  fails with cudaErrorIllegalAddress and exits as a worker whose
                            CUDA context is lost (kWorkerExitContextLost)
  selftest.wrong_answer     fails with the wrong sum
  any other probe           passes; its reason names the --peer GPUs ("peers: 1,2")

Each GPU N is an sm_90 "Fake GPU" with UUID GPU-fake-N. With GPUCONFORM_FAKE_WORKER_LOG set,
each worker appends one line to that file: "describe N" or "probes N: ID ID ...".
"""
import ctypes
import json
import os
import signal
import sys
import time

CONTEXT_LOST = 3  # kWorkerExitContextLost (runner.hpp)


def main(argv):
    # As the real worker does (run_worker): it dies with the test process, whatever kills that.
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    fd, device, describe, probes, peers = 3, 0, False, [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--quick", "--describe"):
            describe = describe or a == "--describe"
            i += 1
            continue
        value = argv[i + 1]
        if a == "--report-fd":
            fd = int(value)
        elif a == "--device":
            device = int(value)
        elif a == "--probe":
            probes.append(value)
        elif a == "--peer":
            peers.append(value)
        i += 2

    def emit(event):
        os.write(fd, (json.dumps(event) + "\n").encode())

    log = os.environ.get("GPUCONFORM_FAKE_WORKER_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"describe {device}\n" if describe else f"probes {device}: {' '.join(probes)}\n")
    wire = {"index": device, "name": "Fake GPU", "cc_major": 9, "cc_minor": 0, "sm_count": 132,
            "l2_bytes": 52428800, "shared_per_sm_bytes": 233472, "shared_per_block_optin_bytes": 232448,
            "global_mem_bytes": 85520809984, "max_sm_clock_khz": 1980000, "mem_clock_khz": 2619000,
            "mem_bus_width_bits": 5120, "pci_bus_id": f"00000000:{device + 0x10:02X}:00.0", "pci_device_id": 0,
            "pci_subsystem_id": 0, "uuid": f"GPU-fake-{device}", "driver_version": "0.0",
            "cuda_driver_version": 0, "cuda_runtime_version": 0}
    emit({"event": "device", "device": wire})
    if describe:
        return 0
    record_device = {"index": device, "uuid": wire["uuid"], "name": wire["name"]}
    for probe in probes:
        emit({"event": "starting", "probe": probe})

        def finish(verdict, reason):
            emit({"event": "finished", "probe": probe,
                  "record": {"record": "test", "probe": probe, "verdict": verdict, "reason": reason,
                             "seconds": 0.01, "measured": {"value": 1.0, "unit": "fake"},
                             "device": record_device}})

        if probe == "selftest.hang":
            while True:
                time.sleep(3600)
        elif probe == "selftest.illegal_address":
            finish("fail", "cudaErrorIllegalAddress: an illegal memory access was encountered; the CUDA context "
                           "is lost; the remaining probes run in a fresh process")
            return CONTEXT_LOST
        elif probe == "selftest.wrong_answer":
            finish("fail", "selftest.wrong_answer: the GPU sum is 524801")
        else:
            finish("pass", "peers: " + ",".join(peers))
    emit({"event": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
