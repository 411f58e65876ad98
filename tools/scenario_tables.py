#!/usr/bin/env python3
"""Regenerates the scenario key tables of scenarios/README.md from the parameter registry.

The tables between "<!-- registry: SECTION -->" and "<!-- /registry -->" are the output of
`rblnsim describe --parameters` (scenario/registry_table.cc); the scenario unit tests fail while
the README differs from it. Usage: tools/scenario_tables.py [BUILD_DIR] (default: build).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCK = re.compile(r"<!-- registry: (\w+) -->\n.*?<!-- /registry -->\n", re.S)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    tables = subprocess.run([os.path.join(build, "bin", "rblnsim"), "describe", "--parameters"],
                            check=True, capture_output=True, text=True).stdout
    generated = {m.group(1): m.group(0) for m in BLOCK.finditer(tables)}
    readme_path = os.path.join(ROOT, "scenarios", "README.md")
    with open(readme_path, encoding="utf-8") as f:
        readme = f.read()
    present = {m.group(1) for m in BLOCK.finditer(readme)}
    missing = sorted(set(generated) - present)
    if missing:
        sys.exit(f"scenarios/README.md has no table block for: {', '.join(missing)}; add "
                 "'<!-- registry: SECTION -->' and '<!-- /registry -->' lines where it belongs")
    updated = BLOCK.sub(lambda m: generated.get(m.group(1), m.group(0)), readme)
    if updated != readme:
        with open(readme_path, "w", encoding="utf-8") as f:
            f.write(updated)
        print("scenarios/README.md: tables updated")
    else:
        print("scenarios/README.md: tables already match the registry")


if __name__ == "__main__":
    main()
