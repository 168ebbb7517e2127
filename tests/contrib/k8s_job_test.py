# SPDX-License-Identifier: Apache-2.0
"""The Kubernetes recipes (contrib/k8s/*.yaml) parse and wire gpuconform's outputs to
Kubernetes. Every container: a version-tagged image (no :latest, no untagged image) with
imagePullPolicy IfNotPresent. The Job: the termination log it writes is the path the
kubelet reads, and it asks for a GPU. The DaemonSet: gpuconform in an init container with
a run level and a deadline, and a labeller whose script, run here with a stub `kubectl`,
labels the node gpuconform.io/verdict and gpuconform.io/failed-probes, taints it on a
failure, removes the taint on a pass and leaves it alone on a busy GPU (exit 3); its
ClusterRole may patch nodes. Exit 77 (skipped) where PyYAML is not installed.
Usage: k8s_job_test.py FILE.yaml..."""
import os
import stat
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("skipped: PyYAML (Debian python3-yaml) is not installed")
    sys.exit(77)


def check_images(path, pod):
    for c in pod.get("initContainers", []) + pod["containers"]:
        image = c["image"]
        name = image.rsplit("/", 1)[-1]
        assert ":" in name and not name.endswith(":latest"), f"{path}: {c['name']}: pin a version tag, not {image}"
        assert c.get("imagePullPolicy") == "IfNotPresent", f"{path}: {c['name']}: imagePullPolicy IfNotPresent"


def check_run_command(cmd):
    assert "gpuconform run" in " ".join(cmd), cmd
    assert "--level" in " ".join(cmd), "the recipe runs a level (gpuconform run --level)"


def check_job(path, job):
    pod = job["spec"]["template"]["spec"]
    assert pod["restartPolicy"] == "Never"
    check_images(path, pod)
    (container,) = pod["containers"]
    cmd = container["command"]
    assert cmd[:2] == ["gpuconform", "run"], cmd
    check_run_command(cmd)
    log = cmd[cmd.index("--termination-log") + 1]
    assert log == container.get("terminationMessagePath", "/dev/termination-log"), (log, container)
    assert int(container["resources"]["limits"]["nvidia.com/gpu"]) >= 1
    out_dir = cmd[cmd.index("--out-dir") + 1]
    mounts = [m["mountPath"] for m in container.get("volumeMounts", [])]
    assert any(out_dir.startswith(m.rstrip("/") + "/") for m in mounts), (out_dir, mounts)


def run_labeller(script, rc, termination):
    """Runs the labeller's script with /results in a scratch directory and a stub kubectl;
    returns the kubectl command lines it ran."""
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, "results")
        os.makedirs(results)
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        log = os.path.join(tmp, "kubectl.log")
        stub = os.path.join(bindir, "kubectl")
        with open(stub, "w") as f:
            f.write(f'#!/bin/sh\necho "$*" >> "{log}"\n')
        os.chmod(stub, stat.S_IRWXU)
        with open(os.path.join(results, "exit_code"), "w") as f:
            f.write(f"{rc}\n")
        with open(os.path.join(results, "termination.txt"), "w") as f:
            f.write(termination)
        body = script.replace("/results", results).replace("exec sleep infinity", "exit 0")
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], NODE_NAME="node17")
        subprocess.run(["sh", "-c", body], check=True, env=env)
        return open(log).read().splitlines() if os.path.exists(log) else []


def check_daemonset(path, ds, docs):
    pod = ds["spec"]["template"]["spec"]
    check_images(path, pod)
    (init,) = pod["initContainers"]
    cmd = " ".join(init["command"])
    check_run_command(init["command"])
    assert "--timeout" in cmd, "a deadline, so the pod always gets to label the node"
    assert int(init["resources"]["limits"]["nvidia.com/gpu"]) >= 1
    tolerated = {t["key"] for t in pod.get("tolerations", [])}
    assert "gpuconform.io/failed" in tolerated, "the DaemonSet must tolerate its own taint"
    (labeller,) = pod["containers"]
    script = labeller["args"][0]
    roles = [d for d in docs if d["kind"] == "ClusterRole"]
    assert any("nodes" in r["resources"] and "patch" in r["verbs"] for role in roles for r in role["rules"]), roles
    line1 = "gpuconform {} (exit {}): 3 pass, 0 warn, {} fail, 0 skip on 1 GPU(s); run x\n"
    passed = run_labeller(script, 0, line1.format("ok", 0, 0))
    assert any("label node node17" in c and "gpuconform.io/verdict=pass" in c and "gpuconform.io/failed-probes=0" in c
               for c in passed), passed
    assert any("taint node node17 gpuconform.io/failed:NoSchedule-" in c for c in passed), passed
    failed = run_labeller(script, 1, line1.format("failed", 1, 2) + "fail latency.alu.fma.rn.f32 (GPU-3ba2): ...\n")
    assert any("gpuconform.io/verdict=fail" in c and "gpuconform.io/failed-probes=2" in c for c in failed), failed
    assert any("taint node node17 --overwrite gpuconform.io/failed=true:NoSchedule" in c for c in failed), failed
    assert any("annotate node node17" in c and "gpuconform.io/summary=" in c for c in failed), failed
    busy = run_labeller(script, 3, line1.format("busy", 3, 0) + "error gpu_busy (busy): GPU in use by others\n")
    assert any("gpuconform.io/verdict=busy" in c for c in busy), busy
    assert not any(c.startswith("taint") for c in busy), f"a busy GPU must not change the taint: {busy}"
    unusable = run_labeller(script, 2, "")
    assert any("gpuconform.io/verdict=unusable" in c for c in unusable), unusable


for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    kinds = [d["kind"] for d in docs]
    if "Job" in kinds:
        check_job(path, docs[kinds.index("Job")])
    elif "DaemonSet" in kinds:
        check_daemonset(path, docs[kinds.index("DaemonSet")], docs)
    else:
        raise AssertionError(f"{path}: neither a Job nor a DaemonSet: {kinds}")
    print(f"ok {path}")
