# SPDX-License-Identifier: Apache-2.0
"""The Kubernetes Job recipe (contrib/k8s/*.yaml) parses and wires gpuconform's outputs to
Kubernetes: the termination log it writes is the path the kubelet reads, and it asks for
a GPU. Exit 77 (skipped) where PyYAML is not installed."""
import sys

try:
    import yaml
except ImportError:
    print("skipped: PyYAML (Debian python3-yaml) is not installed")
    sys.exit(77)

path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    docs = [d for d in yaml.safe_load_all(f) if d]
assert len(docs) == 1, f"{path}: expected one document, found {len(docs)}"
job = docs[0]
assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job", job.get("kind")
pod = job["spec"]["template"]["spec"]
assert pod["restartPolicy"] == "Never"
(container,) = pod["containers"]
cmd = container["command"]
assert cmd[:2] == ["gpuconform", "run"], cmd
assert "--level" in cmd, "the Job runs a level (gpuconform run --level)"
log = cmd[cmd.index("--termination-log") + 1]
assert log == container.get("terminationMessagePath", "/dev/termination-log"), (log, container)
assert int(container["resources"]["limits"]["nvidia.com/gpu"]) >= 1
out_dir = cmd[cmd.index("--out-dir") + 1]
mounts = [m["mountPath"] for m in container.get("volumeMounts", [])]
assert any(out_dir.startswith(m.rstrip("/") + "/") for m in mounts), (out_dir, mounts)
print(f"ok {path}")
