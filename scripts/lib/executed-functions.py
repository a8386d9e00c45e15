#!/usr/bin/env python3
"""The functions of one program that callgrind profiles saw it execute, hottest first: the linker's symbol order.

    executed-functions.py PROGRAM PROFILE... > executed-functions.order

Reads callgrind's output files (`valgrind --tool=callgrind --demangle=no`), adds up each function's own cost
(instructions executed in it, not in its callees) over every profile, and prints the mangled names of the functions
of PROGRAM (the object the profiles name by that path) with any cost, the costliest first.

Left out: names callgrind could not resolve (shown as addresses) or made up ("(below main)"), and names PROGRAM
defines more than once. The linker orders whole sections by the names in them, and a name many objects define — a
local helper such as `objectdestroyTm`, or a generic specialisation the linker kept from a package compiled without a
section per function — would bring whole sections of code no run executes to the front with it.
"""
import collections
import os
import re
import subprocess
import sys

# A name-compressed reference: "(12) name" the first time, "(12)" after it.
REFERENCE = re.compile(r"\((\d+)\)(?: (.*))?$")


def resolve(table, text):
    match = REFERENCE.match(text)
    if not match:
        return text
    if match.group(2) is not None:
        table[match.group(1)] = match.group(2)
    return table.get(match.group(1))


def own_costs(profile, program):
    """Each function of `program` with the instructions `profile` counted in it."""
    objects, functions = {}, {}
    costs = collections.Counter()
    current_object = current_function = None
    skip_call_cost = False
    with open(profile) as lines:
        for line in lines:
            line = line.rstrip("\n")
            if skip_call_cost:
                # The line after "calls=" holds the call's inclusive cost: the callee's, not this function's.
                skip_call_cost = False
                continue
            key, _, value = line.partition("=")
            if key == "ob":
                current_object = resolve(objects, value)
            elif key == "fn":
                current_function = resolve(functions, value)
            elif key == "cob":
                # A callee's object may be named here first; later lines refer to it by number only.
                resolve(objects, value)
            elif key == "cfn":
                resolve(functions, value)
            elif key == "calls":
                skip_call_cost = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if current_function and current_object and os.path.realpath(current_object) == program:
                    fields = line.split()
                    if len(fields) >= 2:
                        costs[current_function] += int(fields[1])
    return costs


def names_defined_more_than_once(program):
    symbols = subprocess.run(["nm", "--defined-only", program], capture_output=True, text=True, check=True).stdout
    counts = collections.Counter(line.split()[-1] for line in symbols.splitlines() if line.strip())
    return {name for name, count in counts.items() if count > 1}


def main(program, profiles):
    program = os.path.realpath(program)
    costs = collections.Counter()
    for profile in profiles:
        costs.update(own_costs(profile, program))
    if not costs:
        sys.exit(f"executed-functions: no function of {program} in {', '.join(profiles)}")
    ambiguous = names_defined_more_than_once(program)
    for name, _ in costs.most_common():
        if not name.startswith("0x") and " " not in name and name not in ambiguous:
            print(name)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
