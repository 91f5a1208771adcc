"""The availability model of scripts/apple-availability: what the compiler's JSON AST of the stub
modules says about each declaration on one Apple platform."""

import json
import subprocess
import sys

PLATFORMS = {
    # name: (the platform's availability domain, the domains its declarations' @available falls
    # back to, in order)
    "ios": ("iOS", ["iOS"]),
    "maccatalyst": ("macCatalyst", ["macCatalyst", "iOS"]),
    "macos": ("macOS", ["macOS"]),
    "tvos": ("tvOS", ["tvOS"]),
    "watchos": ("watchOS", ["watchOS"]),
    "visionos": ("visionOS", ["visionOS", "iOS"]),
}
# The domains an `#available` query is read in, in order. Apple's compiler reads an iOS version in
# a guard on Mac Catalyst (whose versions are iOS's), but on visionOS only a visionOS version: in
# `#available(iOS 17.4, *)` the `*` stands for visionOS's deployment target
# (scripts/apple-availability-agreement checks both against the compiler).
GUARD_DOMAINS = {
    "ios": ["iOS"],
    "maccatalyst": ["macCatalyst", "iOS"],
    "macos": ["macOS"],
    "tvos": ["tvOS"],
    "watchos": ["watchOS"],
    "visionos": ["visionOS"],
}
STUB_PLATFORMS = ["iOS", "macOS", "tvOS", "watchOS", "visionOS"]
NOMINAL_KINDS = {"class_decl", "struct_decl", "enum_decl", "protocol_decl", "typealias"}


def version(text):
    return tuple(int(part) for part in str(text).split("."))


def show(parts):
    return ".".join(str(part) for part in parts)


def read_asts(path):
    """The source_file objects that `-dump-ast -dump-ast-format json` wrote to `path`."""
    text = open(path, encoding="utf-8", errors="replace").read()
    decoder = json.JSONDecoder()
    files, index = [], 0
    marker = '{"_kind":"source_file"'
    while True:
        index = text.find(marker, index)
        if index < 0:
            return files
        value, index = decoder.raw_decode(text, index)
        files.append(value)


def available_attrs(node):
    return [attr for attr in node.get("attrs") or [] if attr.get("_kind") == "available_attr"]


def select(attrs, chain):
    """The attributes that apply on the platform: those of the first domain of `chain` that has
    any, and those of `*`."""
    chosen = []
    for domain in chain:
        chosen = [attr for attr in attrs if attr.get("domain") == domain]
        if chosen:
            break
    return chosen + [attr for attr in attrs if attr.get("domain") == "*"]


def name_of(node):
    name = node.get("name")
    if isinstance(name, str):
        return name
    if not isinstance(name, dict):
        return "?"
    base = name.get("base_name", {})
    text = base.get("name") or base.get("special") or "?"
    if "args" in name:
        text += "(" + "".join((arg or "_") + ":" for arg in name["args"]) + ")"
    return text


class Availability:
    """What a chain of `@available` attributes says about one platform."""

    def __init__(self):
        self.introduced = None
        self.deprecated = None
        self.unavailable = False
        self.stated = set()

    def add(self, attrs, chain):
        for attr in attrs:
            if attr.get("domain") in STUB_PLATFORMS:
                self.stated.add(attr["domain"])
        for attr in select(attrs, chain):
            if attr.get("unavailable"):
                self.unavailable = True
            if attr.get("introduced") and attr.get("domain") != "*":
                introduced = version(attr["introduced"])
                self.introduced = max(self.introduced or introduced, introduced)
            if attr.get("deprecated"):
                deprecated = (0,) if attr["deprecated"] is True else version(attr["deprecated"])
                self.deprecated = min(self.deprecated or deprecated, deprecated)

    def copy(self):
        other = Availability()
        other.introduced, other.deprecated = self.introduced, self.deprecated
        other.unavailable, other.stated = self.unavailable, set(self.stated)
        return other


class Stubs:
    """The availability of every declaration of the stub modules, by USR and by qualified name."""

    def __init__(self, chain):
        self.chain = chain
        self.by_usr = {}
        self.by_name = {}
        self.silent = []
        self.pending = []

    def load(self, module, path, lint=True):
        """Reads a module; its extensions wait for ``finish()``, when every extended type is known."""
        self.lint = lint
        for source in read_asts(path):
            for item in source.get("items") or []:
                pending = []
                self.walk(item, module, [], Availability(), pending, top=True)
                self.pending += [(node, module, outer) for node, outer in pending]

    def finish(self):
        for node, module, outer in self.pending:
            self.extension(node, module, outer)
        self.pending = []

    def walk(self, node, module, names, outer, pending, top=False):
        kind = node.get("_kind", "")
        if kind == "extension_decl":
            pending.append((node, outer))
            return
        if not kind.endswith("_decl") and kind != "typealias":
            return
        availability = outer.copy()
        availability.add(available_attrs(node), self.chain)
        name = name_of(node)
        path = names
        if kind in NOMINAL_KINDS:
            path = names + [name.split("(")[0]]
            self.by_name[module + "." + ".".join(path)] = (availability, ".".join(path), self.lint)
        if node.get("usr"):
            self.by_usr[node["usr"]] = (
                availability, ".".join(names + [name]) if kind not in NOMINAL_KINDS else ".".join(path), self.lint)
        if self.lint and (top or kind in NOMINAL_KINDS) and node.get("access") in ("public", "open") and kind != "pattern_binding_decl":
            missing = [domain for domain in STUB_PLATFORMS if domain not in availability.stated]
            if missing:
                self.silent.append(f"{module}.{'.'.join(path) if kind in NOMINAL_KINDS else name}: " + ", ".join(missing))
        for member in node.get("members") or []:
            self.walk(member, module, path, availability, pending)
        for element in node.get("elements") or []:
            if isinstance(element, dict):
                self.walk(element, module, path, availability, pending)

    def extension(self, node, module, outer):
        extended = demangle([node.get("extended_type", "")]).get(node.get("extended_type", ""), "")
        availability = outer.copy()
        names = []
        known = self.by_name.get(extended)
        if known:
            availability = known[0].copy()
            names = known[1].split(".")
        elif "." in extended:
            names = extended.split(".", 1)[1].split(".")
        availability.add(available_attrs(node), self.chain)
        for member in node.get("members") or []:
            self.walk(member, module, names, availability, [])


_demangled = {}


def demangle(symbols):
    wanted = sorted({symbol for symbol in symbols if symbol.startswith("$s") and symbol not in _demangled})
    if wanted:
        result = subprocess.run(
            ["swift", "demangle", "--compact"], input="\n".join(wanted) + "\n", capture_output=True, text=True,
            check=True)
        lines = result.stdout.splitlines()
        if len(lines) != len(wanted):
            sys.exit("apple-availability: swift demangle answered out of step")
        _demangled.update(zip(wanted, lines))
    return {symbol: _demangled.get(symbol, "") for symbol in symbols}
