# SPDX-License-Identifier: Apache-2.0
"""What can be checked of contrib/docker/Dockerfile without docker: a build stage on the
CUDA devel image, a run stage on a non-devel image that copies only from the build stage,
apt lists removed in each stage that installs, an ENTRYPOINT, and every flag in its
`gpuconform` commands exists in the CLI's help; the suite commit comes in as a build
argument (GPUCONFORM_COMMIT, handed to the build as GPUCONFORM_SUITE_COMMIT and labelled on
the image), and a .dockerignore at the build context's root keeps .git and build trees
out. Usage: dockerfile_lint.py DOCKERFILE GPUCONFORM [DOCKERIGNORE]"""
import os
import re
import subprocess
import sys

dockerfile, cli = sys.argv[1], sys.argv[2]
text = open(dockerfile, encoding="utf-8").read()
joined = re.sub(r"\\\n", " ", text)
lines = [l.strip() for l in joined.splitlines() if l.strip() and not l.strip().startswith("#")]
problems = []
stages = [l for l in lines if l.upper().startswith("FROM ")]
if len(stages) != 2:
    problems.append(f"expected 2 stages, found {len(stages)}")
else:
    if "-devel-" not in stages[0] or " AS build" not in stages[0]:
        problems.append(f"stage 1 must be the CUDA devel image 'AS build': {stages[0]}")
    if "-devel-" in stages[1]:
        problems.append(f"the run stage must not be a devel image: {stages[1]}")
for l in lines:
    if l.upper().startswith("COPY --FROM=") and not l.upper().startswith("COPY --FROM=BUILD "):
        problems.append(f"copies from a stage other than build: {l}")
    if "apt-get install" in l:
        if "--no-install-recommends" not in l:
            problems.append(f"apt-get install without --no-install-recommends: {l}")
        if "rm -rf /var/lib/apt/lists" not in l:
            problems.append(f"apt lists left in the image: {l}")
if not any(l.upper().startswith("ENTRYPOINT ") for l in lines):
    problems.append("no ENTRYPOINT")
# Options of `gpuconform run` used in CMD must exist (the help lists them).
helps = {}
for l in lines:
    if l.upper().startswith("CMD "):
        args = re.findall(r'"([^"]*)"', l)
        sub = args[0]
        helps.setdefault(sub, subprocess.run([cli, sub, "--help"], capture_output=True, text=True).stdout)
        for a in args[1:]:
            if a.startswith("--") and a not in helps[sub]:
                problems.append(f"CMD uses {a}, which `gpuconform {sub} --help` does not list")
# The commit: an ARG, passed to the build, and labelled on the image.
if not any(re.match(r"ARG GPUCONFORM_COMMIT(=|$)", l) for l in lines):
    problems.append("no ARG GPUCONFORM_COMMIT (the suite commit, baked in)")
if not any("GPUCONFORM_SUITE_COMMIT=" in l and "${GPUCONFORM_COMMIT}" in l and "cmake" in l for l in lines):
    problems.append("the build does not hand GPUCONFORM_COMMIT to cmake as GPUCONFORM_SUITE_COMMIT")
if not any(l.upper().startswith("LABEL ") and "org.opencontainers.image.revision" in l for l in lines):
    problems.append("no org.opencontainers.image.revision label")
ignore = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(dockerfile), "..", "..", ".dockerignore")
try:
    patterns = {l.strip() for l in open(ignore, encoding="utf-8") if l.strip() and not l.startswith("#")}
    for needed in (".git", "build-*"):
        if needed not in patterns:
            problems.append(f"{ignore} does not leave out {needed}")
except OSError:
    problems.append(f"no .dockerignore at {ignore}")
for p in problems:
    print(f"{dockerfile}: {p}")
print(f"{len(problems)} problem(s)")
sys.exit(1 if problems else 0)
