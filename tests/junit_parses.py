# SPDX-License-Identifier: Apache-2.0
"""ctest junit.python_parses: the JUnit file whose failure reason holds control characters,
quotes, markup and bytes that are not UTF-8 (written by the unit test
JUnit.ControlCharactersInReason) must parse with Python's xml.etree, a parser that is not
the one that wrote it.

usage: junit_parses.py UNIT_TEST_BINARY OUTPUT_XML
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

unit_tests, out = sys.argv[1], sys.argv[2]
if os.path.exists(out):
    os.remove(out)  # never judge a file left by an earlier run
subprocess.run([unit_tests, "--gtest_filter=JUnit.ControlCharactersInReason"],
               env=dict(os.environ, GPUCONFORM_JUNIT_OUT=out), check=True)
root = ET.parse(out).getroot()  # raises on a malformed file
failure = root.find(".//testcase/failure")
assert failure is not None, "no <failure> in " + out
message = failure.get("message")
assert "\\x1b[31m\"4\" < 5 & 'x'" in message, "reason mangled: " + repr(message)
props = {p.get("name"): p.get("value") for p in root.iter("property")}
assert props.get("gpu.uuid") == "GPU-7e7c5466-fixture", props
print("xml.etree parsed", out, "reason:", repr(message))
