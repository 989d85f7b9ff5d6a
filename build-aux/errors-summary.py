#!/usr/bin/env python3
# errors-summary.py VALIDATE.json FRAMEWORKS_DIR OUT.tsv: the build's summary
# of the bundled measured runs, for headroom-cli and the window to read at
# start instead of planning the runs (src/io/hr-error-bar.c,
# calibration_from_summary).  VALIDATE.json is `headroom-cli --validate
# data/measured-calibration.json --format json` (docs/outputs.md); each
# line of OUT.tsv is one run: its id, its kind (method, framework, the
# framework's name from its profile, layout) and its error.  Tab-separated
# text because reading it costs a few thousand instructions, where
# parsing the JSON took 3.4 million, a third of the CLI's start-up.
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import os
import sys

HEADER = "# headroom measured errors 1"


def main():
    validate, frameworks, out = sys.argv[1:4]
    with open(validate, encoding="utf-8") as f:
        runs = json.load(f)["runs"]
    names = {}
    for entry in sorted(os.listdir(frameworks)):
        if entry.endswith(".json"):
            with open(os.path.join(frameworks, entry), encoding="utf-8") as f:
                names[entry[:-5]] = json.load(f)["name"]
    with open(out, "w", encoding="utf-8") as f:
        f.write(HEADER + "\tid\tmethod\tframework\tframework name\tlayout"
                "\tmeasured bytes\tpredicted bytes\terror\n")
        for run in runs:
            kind = run["kind"]
            fields = [run["id"], kind["method"], kind["framework"],
                      names.get(kind["framework"], ""), kind["layout"],
                      str(run["measured_bytes"]), str(run["predicted_bytes"]),
                      repr(float(run["error"]))]
            if any("\t" in x or "\n" in x for x in fields):
                sys.exit("errors-summary.py: %s: a tab or newline in a field" % run["id"])
            f.write("\t".join(fields) + "\n")


main()
