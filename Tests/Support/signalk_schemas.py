"""The Signal K specification's JSON schemas (Tests/Interop/signalk-schemas, CC BY-SA 2.0) as a local store, for
jsonschema: every reference resolves from the files, never the network.

    schemas = SignalKSchemas(path)
    ok, why = schemas.valid("delta.json", document)
"""
import json
import pathlib
import warnings

import jsonschema

warnings.simplefilter("ignore", DeprecationWarning)  # RefResolver: still the way to a local store
BASE = "https://signalk.org/specification/1.5.1/schemas/"


class SignalKSchemas:
    def __init__(self, directory):
        self.directory = pathlib.Path(directory).resolve()
        # Every schema by its own id: references resolve here. (sar.json says it is aton.json, and crs.json has no
        # id: the files' own places win over the ids they state.)
        store, placed = {}, {}
        for schema_file in sorted(self.directory.rglob("*.json")):
            document = json.loads(schema_file.read_text())
            relative = schema_file.relative_to(self.directory).as_posix()
            placed[BASE + relative] = document
            placed[schema_file.as_uri()] = document
            if relative.startswith("external/geojson/"):
                placed["http://json-schema.org/geojson/" + relative.split("/")[-1]] = document
            if isinstance(document, dict) and "id" in document:
                store.setdefault(document["id"].split("#")[0], document)
        store.update(placed)
        # definitions.json gives three inner objects an id of their own ("lower", "upper", "message"), which draft 4
        # takes as new base URIs for the references inside them: those references mean definitions.json.
        for alias in ("lower", "upper", "message"):
            store[BASE + alias] = store[BASE + "definitions.json"]
        self.store = store

    def validator(self, name):
        store = self.store

        class LocalResolver(jsonschema.RefResolver):
            """Never the network. A group names another as "groups/x.json" from inside groups/ (the specification's
            own loader allows it): such a path is read as the file it means."""

            def resolve_remote(self, uri):
                url = uri.split("#")[0]
                while "/groups/groups/" in url:
                    url = url.replace("/groups/groups/", "/groups/")
                for candidate in (url, url.replace("/schemas/groups/", "/schemas/")):
                    if candidate in store:
                        return store[candidate]
                raise jsonschema.exceptions.RefResolutionError(f"not in the local schema store: {uri}")

        schema = store[(self.directory / name).as_uri()]
        resolver = LocalResolver(base_uri=BASE + name, referrer=schema, store=store)
        return jsonschema.Draft4Validator(schema, resolver=resolver)

    def valid(self, name, document):
        errors = sorted(self.validator(name).iter_errors(document), key=lambda e: list(e.path))
        return (not errors, "; ".join(f"{list(e.path)}: {e.message[:160]}" for e in errors[:5]))
