#!/usr/bin/env python3
"""firebase-admin-node's Auth and App Check API, as its API Extractor reports list it, and how
much of it FirebaseAdminAuth has (issue 57).

  admin-api.py members GIT_DIR TAG
      The members of etc/firebase-admin.auth.api.md and etc/firebase-admin.app-check.api.md at
      TAG: one line each, `MODULE<TAB>Type.member` (a method, property, or request or result
      field) or `MODULE<TAB>getAuth` (a function); error-code values are listed apart, as
      `MODULE<TAB>AuthErrorCode.NAME<TAB>code`. Scripts/admin-api/members-14.3.0.tsv is this.
  admin-api.py codes MEMBERS > Sources/FirebaseAdminAuth/AdminErrorCodes.swift
      The error-code values of MEMBERS as Swift enums: `AdminAuthErrorCode` (firebase-admin's
      `AuthErrorCode`; FirebaseAuth has an `AuthErrorCode` of its own) and `AppCheckErrorCode`.
  admin-api.py coverage MEMBERS NAMES SYMBOLS_DIR [TABLE]
      How many of MEMBERS FirebaseAdminAuth's symbol graph (SYMBOLS_DIR/FirebaseAdminAuth.symbols.json)
      has, by the Swift names of NAMES (`Node<TAB>Swift`, types and members; a Swift name of
      `-` is a member with no Swift counterpart, and why); prints `covered N of M (P%)` and,
      with TABLE, writes the Markdown table of every member.
"""
import json
import re
import subprocess
import sys

REPORTS = [("auth", "etc/firebase-admin.auth.api.md"), ("app-check", "etc/firebase-admin.app-check.api.md")]


def report_members(text):
    """(type, member) pairs of a report, and error-code values as (type, NAME, code)."""
    members, codes = [], []
    owner, depth, is_codes = None, 0, False
    for line in text.split("\n"):
        if owner is None:
            match = re.match(r"export (?:declare )?(?:abstract )?(class|interface|const) (\w+)[^{]*\{\s*$", line)
            if match:
                owner, depth, is_codes = match.group(2), 1, match.group(1) == "const"
                continue
            function = re.match(r"export function (\w+)\(", line)
            if function:
                members.append((None, function.group(1)))
            continue
        stripped = line.strip()
        if depth == 1 and not stripped.startswith("//") and stripped and not stripped.startswith("}"):
            if is_codes:
                code = re.match(r'readonly (\w+): "([^"]+)";', stripped)
                if code:
                    codes.append((owner, code.group(1), code.group(2)))
            else:
                name = re.match(r"(?:readonly |get |static )*(\w+)\??[(:<]", stripped)
                if name and name.group(1) != "constructor":
                    members.append((owner, name.group(1)))
        depth += line.count("{") - line.count("}")
        if depth <= 0:
            owner = None
    return members, codes


def members(git_dir, tag):
    for module, path in REPORTS:
        text = subprocess.run(["git", "--git-dir", git_dir, "show", f"{tag}:{path}"], check=True, capture_output=True, text=True).stdout
        found, codes = report_members(text)
        for owner, name in sorted(set(found), key=lambda item: (item[0] or "", item[1])):
            print(f"{module}\t{owner + '.' if owner else ''}{name}")
        for owner, name, code in codes:
            print(f"{module}\t{owner}.{name}\t{code}")


def swift_names(symbols_file):
    """Every public symbol of the graph, as `Type.member` (base names, no labels) and `Type`."""
    graph = json.load(open(symbols_file))
    names = set()
    for symbol in graph["symbols"]:
        path = symbol["pathComponents"]
        names.add(".".join(re.sub(r"\(.*", "", part) for part in path))
    return names


def coverage(members_file, names_file, symbols_dir, table_file=None):
    mapping = {}
    for line in open(names_file):
        if line.startswith("#") or not line.strip():
            continue
        node, swift = line.rstrip("\n").split("\t")[:2]
        mapping[node] = swift
    have = swift_names(f"{symbols_dir}/FirebaseAdminAuth.symbols.json")
    rows, covered, total = [], 0, 0
    for line in open(members_file):
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 2:
            continue  # error-code values are measured apart
        node = fields[1]
        total += 1
        swift = mapping.get(node)
        if swift is None:
            owner, _, member = node.rpartition(".")
            owner = mapping.get(owner, owner)
            swift = f"{owner}.{member}" if owner else member
        found = swift != "-" and swift in have
        covered += found
        rows.append((node, swift if swift != "-" else "", "yes" if found else "no"))
    percent = 100.0 * covered / total if total else 0.0
    print(f"covered {covered} of {total} ({percent:.1f}%)")
    # The error-code values, apart: each a case of the Swift enum of its type.
    enums = {"AuthErrorCode": "AdminAuthErrorCode", "AppCheckErrorCode": "AppCheckErrorCode"}
    values = [line.rstrip("\n").split("\t") for line in open(members_file)]
    values = [row for row in values if len(row) == 3]
    named = sum(1 for row in values if f"{enums[row[1].split('.')[0]]}.{camel(row[1].split('.', 1)[1]).strip('`')}" in have)
    print(f"error codes {named} of {len(values)}")
    if table_file:
        with open(table_file, "w") as table:
            table.write("| firebase-admin-node 14.3.0 | FirebaseAdminAuth | there |\n|---|---|---|\n")
            for node, swift, found in rows:
                table.write(f"| `{node}` | {'`' + swift + '`' if swift else ''} | {found} |\n")


def camel(name):
    words = name.lower().split("_")
    text = words[0] + "".join(word.capitalize() for word in words[1:])
    return {"internal": "`internal`", "default": "`default`"}.get(text, text)


def codes(members_file):
    enums = {"AuthErrorCode": ("AdminAuthErrorCode", "auth", "`AuthErrorCode`"), "AppCheckErrorCode": ("AppCheckErrorCode", "app-check", "`AppCheckErrorCode`")}
    rows = [line.rstrip("\n").split("\t") for line in open(members_file)]
    print("// Generated by Scripts/admin-api.py codes Scripts/admin-api/members-14.3.0.tsv: do not edit.")
    print("// firebase-admin-node 14.3.0's error codes, from its API reports.")
    for node, (swift, prefix, shown) in enums.items():
        print()
        print(f"/// firebase-admin's {shown}: an `AdminAuthError`'s `code` is `{prefix}/` and one of these.")
        print(f"public enum {swift}: String, Sendable, CaseIterable {{")
        for row in rows:
            if len(row) == 3 and row[1].startswith(node + "."):
                name = row[1].split(".", 1)[1]
                print(f"    /// `{prefix}/{row[2]}` (`{name}`).")
                print(f"    case {camel(name)} = \"{row[2]}\"")
        print("}")


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "members":
        members(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "codes":
        codes(sys.argv[2])
    elif len(sys.argv) >= 5 and sys.argv[1] == "coverage":
        coverage(*sys.argv[2:6])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
