#!/usr/bin/env python3
"""The SDK's public API, member by member, and how much of it fbauth's library has (issue 48).

  sdk-api.py members SDK_GIT_DIR REV
      Reads firebase-ios-sdk at REV (a git directory: a clone or a bare mirror) and prints one
      line a public member: `Module<TAB>Type.member(labels:)`. FirebaseAuth comes from
      FirebaseAuth/Sources/Swift, FirebaseCore from its public Objective-C headers, named as Swift
      sees them.
  sdk-api.py errors SDK_GIT_DIR REV
      Prints the SDK's error codes from its AuthErrors.swift, one a line:
      `value<TAB>case<TAB>ERROR_NAME<TAB>message`.
  sdk-api.py coverage MEMBERS ABSENT SYMBOLS_DIR TABLE
      MEMBERS is that list; ABSENT names what means nothing off Apple platforms (a glob, a tab,
      the reason); SYMBOLS_DIR holds FirebaseAuth.symbols.json and FirebaseCore.symbols.json (the
      compiler's symbol graphs). Writes TABLE (markdown: each member, ✓ or why it is absent) and
      prints `covered N of M (P%)` and each missing member.

A member is matched by its Swift name: the type path and the function's argument labels.
"""
import fnmatch
import json
import re
import subprocess
import sys

SWIFT_ROOT = "FirebaseAuth/Sources/Swift/"
CORE_HEADERS = "FirebaseCore/Sources/Public/FirebaseCore/"


def git(sdk, *args):
    return subprocess.run(["git", "--git-dir", sdk, *args], check=True, capture_output=True, text=True).stdout


def strip_comments_and_strings(text):
    """Blanks out comments and string contents, keeping line breaks, so braces count truly."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


DECL = re.compile(
    r"^(?P<attrs>(?:@\w+(?:\([^)]*\))?\s+)*)"
    r"(?P<mods>(?:(?:(?:public|internal|private|fileprivate|package)\(set\)|public|open|internal|private|fileprivate|package|final|static|class|override|"
    r"convenience|required|nonisolated|dynamic|lazy|weak|unowned|mutating|@\w+(?:\([^)]*\))?)\s+)*)"
    r"(?P<kind>class|struct|enum|protocol|extension|actor|func|init|var|let|case|typealias|subscript)\b"
    r"(?P<rest>.*)$",
    re.S,
)


def labels(params):
    """`withEmail email: String, password: String` → `withEmail:password:`."""
    depth, part, parts = 0, "", []
    for c in params:
        if c in "([<":
            depth += 1
        elif c in ")]>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(part)
            part = ""
        else:
            part += c
    if part.strip():
        parts.append(part)
    names = []
    for p in parts:
        head = p.split(":", 1)[0].strip().split()
        head = [h for h in head if not h.startswith("@") and h not in ("inout", "isolated", "sending")]
        names.append((head[0] if head else "_") + ":")
    return "".join(names)


def swift_members(sdk, rev):
    files = [f for f in git(sdk, "ls-tree", "-r", "--name-only", rev, SWIFT_ROOT).split() if f.endswith(".swift")]
    members = set()
    for path in files:
        text = strip_comments_and_strings(git(sdk, "show", f"{rev}:{path}"))
        # Declarations can span lines: read statement by statement, joined until their
        # parentheses close.
        lines = text.split("\n")
        stack = []  # (name, depth its body opened at, members public by default?, an enum?)
        depth = 0
        i = 0
        pending = ""  # attributes on lines of their own, for the declaration below them
        while i < len(lines):
            line = lines[i].strip()
            if re.fullmatch(r"(@\w+(\([^()]*\))?\s*)+", line):
                pending += " " + line
                i += 1
                continue
            stmt = (pending + " " + line).strip() if line else line
            if line:
                pending = ""
            head = DECL.match(stmt) if stmt else None
            if head or stmt.startswith("@"):
                # A signature until its parentheses close; a type's header until its brace.
                def unfinished():
                    if stmt.count("(") > stmt.count(")"):
                        return True
                    kind = head.group("kind") if head else None
                    return kind in ("class", "struct", "enum", "protocol", "extension", "actor") and "{" not in stmt
                while unfinished() and i + 1 < len(lines):
                    i += 1
                    stmt += " " + lines[i].strip()
                    head = DECL.match(stmt)
                line = stmt
            m = DECL.match(stmt) if stmt and not stmt.startswith("#") else None
            opened_type = None
            if m and re.search(r"@available\(\*,\s*unavailable", m.group("attrs") + m.group("mods")):
                m = None  # unavailable in Swift: not part of the API an app can call
                opened_type = (None, False, False)
            if m:
                mods = (m.group("attrs") + " " + m.group("mods")).split()
                kind, rest = m.group("kind"), m.group("rest").strip()
                inside = stack[-1] if stack and stack[-1][1] == depth else None
                implied = inside is not None and inside[2] and kind != "case"
                hidden = {"private", "fileprivate", "internal", "package"} & set(mods)
                visible = not hidden and ("public" in mods or "open" in mods or implied
                                          or (kind == "case" and inside is not None and inside[3]))
                if kind in ("class", "struct", "enum", "protocol", "actor", "extension"):
                    name = re.match(r"[\w.]+", rest).group(0)
                    if kind == "extension":
                        opened_type = (name, "public" in mods, False)
                    elif visible and (kind != "class" or "func" not in rest.split("(")[0]):
                        full = f"{inside[0]}.{name}" if inside else name
                        members.add(full)
                        opened_type = (full, kind == "protocol", kind == "enum")
                    else:
                        opened_type = (None, False, False)
                elif visible and inside and inside[0]:
                    owner = inside[0]
                    if kind == "func":
                        fm = re.match(r"([^\s(<]+)\s*(?:<[^>]*>)?\s*\((.*)", rest, re.S)
                        if fm:
                            members.add(f"{owner}.{fm.group(1)}({labels(match_paren(fm.group(2)))})")
                    elif kind == "init":
                        im = re.match(r"[?!]?\s*(?:<[^>]*>)?\s*\((.*)", rest, re.S)
                        if im:
                            members.add(f"{owner}.init({labels(match_paren(im.group(1)))})")
                    elif kind in ("var", "let"):
                        for vm in re.finditer(r"(?:^|,)\s*(\w+)\s*:", rest):
                            members.add(f"{owner}.{vm.group(1)}")
                            break
                    elif kind == "case" and inside[3]:
                        for name in re.findall(r"(?:^|,)\s*(\w+)", rest.split("=")[0] if "(" not in rest else rest):
                            members.add(f"{owner}.{name}")
            opens, closes = line.count("{"), line.count("}")
            if opened_type is not None and opens > closes:
                stack.append((opened_type[0], depth + 1, opened_type[1], opened_type[2]))
            depth += opens - closes
            while stack and stack[-1][1] > depth:
                stack.pop()
            i += 1
    # Extensions of types outside the module (Foundation's, etc.) are not the SDK's API, unless
    # they add to a type the module itself declares.
    owners = {m for m in members if "." not in m and "(" not in m}
    return {m for m in members if m.split(".")[0] in owners}


def match_paren(text):
    depth, out = 1, ""
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                break
        out += c
    return out


# Objective-C selectors Swift renames without an NS_SWIFT_NAME, as the importer does for these.
OBJC_RENAMES = {
    "configure": "configure()",
    "deleteApp:": "delete(_:)",
    "initWithContentsOfFile:": "init(contentsOfFile:)",
    "setLoggerLevel:": "setLoggerLevel(_:)",
    "loggerLevel": "loggerLevel()",
}


def core_members(sdk, rev):
    members = set()
    for header in ("FIRApp.h", "FIROptions.h", "FIRConfiguration.h", "FIRLoggerLevel.h", "FIRVersion.h"):
        text = strip_comments_and_strings(git(sdk, "show", f"{rev}:{CORE_HEADERS}{header}"))
        text = re.sub(r"\s+", " ", text)
        for iface, body in re.findall(r"NS_SWIFT_NAME\((\w+)\) @interface \w+ : \w+[^@]*?((?:.(?!@end))*)", text):
            members.add(iface)
            for decl in body.split(";"):
                decl = re.sub(r"^<[^>]*>", "", decl.strip()).strip()
                if "NS_UNAVAILABLE" in decl or not decl:
                    continue
                swift = re.search(r"NS_SWIFT_NAME\(([^()]*(?:\([^()]*\))?)\)", decl)
                if decl.startswith("@property"):
                    # Swift names a property by its getter= where it has one (isDataCollectionDefaultEnabled).
                    getter = re.search(r"getter=(\w+)", decl)
                    name = swift.group(1) if swift else getter.group(1) if getter else re.findall(r"\*?(\w+)\s*(?:NS_\w+.*)?$", decl)[0]
                    members.add(f"{iface}.{name}")
                elif decl[0] in "+-":
                    if swift:
                        name = swift.group(1)
                    else:
                        selector = "".join(re.findall(r"(\w+:)", re.sub(r"\([^()]*(\([^()]*\)[^()]*)*\)", "", decl[1:]))) \
                            or re.findall(r"\)\s*(\w+)", decl)[0]
                        name = OBJC_RENAMES[selector]
                    members.add(f"{iface}.{name}")
        for cases, name in re.findall(r"typedef NS_ENUM\(NSInteger, \w+\) \{([^}]*)\} NS_SWIFT_NAME\((\w+)\)", text):
            members.add(name)
            for case in re.findall(r"FIRLoggerLevel(\w+)", cases):
                members.add(f"{name}.{case[0].lower() + case[1:]}")
        for name in re.findall(r"NS_SWIFT_NAME\((\w+)\(\)\) NSString", text):
            members.add(f"{name}()")
    return members


def errors(sdk, rev):
    """The SDK's `AuthErrorCode` table: each case's value, its `ERROR_` name and its message."""
    text = git(sdk, "show", f"{rev}:{SWIFT_ROOT}Utilities/AuthErrors.swift")
    enum = text[text.index("public enum AuthErrorCode"):]
    enum = enum[:enum.index("\n}\n")]
    values = re.findall(r"^\s*case (\w+) = (\d+)", enum, re.M)
    constants = {}
    for name, body in re.findall(r"^private let (\w+)\s*=\s*((?:\s*\"(?:[^\"\\]|\\.)*\"\s*\+?)+)", text, re.M):
        constants[name] = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body)).replace('\\"', '"')
    returns = re.findall(r"case \.(\w+):\s*return (\w+|\"[^\"]*\")", text)
    messages, names = {}, {}
    for case, value in returns:
        if value.startswith('"'):
            names.setdefault(case, value.strip('"'))
        elif value in constants:
            messages.setdefault(case, constants[value])
    return [(int(v), c, names.get(c, ""), messages.get(c, "")) for c, v in values]


def symbol_names(path):
    graph = json.load(open(path))
    names = set()
    for symbol in graph["symbols"]:
        if symbol["accessLevel"] not in ("public", "open"):
            continue
        names.add(".".join(symbol["pathComponents"]))
    return names


def coverage(members_file, absent_file, symbols_dir, table_file):
    members = [line.rstrip("\n").split("\t") for line in open(members_file) if line.strip()]
    rules = [line.rstrip("\n").split("\t", 1) for line in open(absent_file) if line.strip() and not line.startswith("#")]
    have = {}
    for module in ("FirebaseAuth", "FirebaseCore"):
        have[module] = symbol_names(f"{symbols_dir}/{module}.symbols.json")
    rows, counted, covered, missing = [], 0, 0, []
    for module, member in members:
        reason = next((why for pattern, why in rules if fnmatch.fnmatchcase(member, pattern)), None)
        if reason is not None:
            rows.append((module, member, reason))
            continue
        counted += 1
        if member in have[module]:
            covered += 1
            rows.append((module, member, "✓"))
        else:
            missing.append(f"{module} {member}")
            rows.append((module, member, "missing"))
    with open(table_file, "w") as out:
        out.write("<!-- Written by Scripts/sdk-api.py from firebase-ios-sdk's sources and fbauth's symbol graphs; do not edit. -->\n")
        out.write(f"# The SDK's API in fbauth: {covered} of {counted} members off Apple platforms\n\n")
        out.write("Every public member of firebase-ios-sdk Release 12.19.0's `FirebaseAuth` (its Swift sources) and of the\n")
        out.write("`FirebaseCore` an app calls (its public headers, by their Swift names). ✓: in fbauth's module under the\n")
        out.write("SDK's name and labels. Otherwise, why it means nothing off Apple platforms.\n\n")
        out.write("| module | member | in fbauth |\n|---|---|---|\n")
        for module, member, state in rows:
            out.write(f"| {module} | `{member}` | {state} |\n")
    percent = 100.0 * covered / counted if counted else 0
    print(f"covered {covered} of {counted} ({percent:.1f}%)")
    for m in missing:
        print(f"missing {m}")
    return percent


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "members":
        sdk, rev = sys.argv[2], sys.argv[3]
        lines = [f"FirebaseAuth\t{m}" for m in swift_members(sdk, rev)] + [f"FirebaseCore\t{m}" for m in core_members(sdk, rev)]
        print("\n".join(sorted(lines)))
    elif len(sys.argv) == 4 and sys.argv[1] == "errors":
        for value, case, name, message in errors(sys.argv[2], sys.argv[3]):
            print(f"{value}\t{case}\t{name}\t{message}")
    elif len(sys.argv) == 6 and sys.argv[1] == "coverage":
        coverage(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
