"""`tf.DeviceSpec`: a device name taken apart into job, replica, task, device
type and index, and put back together.

    DeviceSpec.from_string("/job:worker/task:3/device:cpu:1").to_string()
        # '/job:worker/task:3/device:CPU:1'
    DeviceSpec(job="a").make_merged_spec(DeviceSpec(device_type="GPU", device_index=1))
        # '/job:a/device:GPU:1'

Immutable and hashable, as TF 2's; `replace(**fields)` and `make_merged_spec`
return new specs. `cpu`/`gpu` in a parsed string are upper-cased; an index
`*` is None (any device of that type).
"""

__all__ = ["DeviceSpec"]

_FIELDS = ("job", "replica", "task", "device_type", "device_index")


class DeviceSpec:
    """`tf.DeviceSpec(job=None, replica=None, task=None, device_type=None,
    device_index=None)`."""

    __slots__ = _FIELDS

    def __init__(self, job=None, replica=None, task=None, device_type=None,
                 device_index=None):
        values = (job, _int(replica), _int(task), device_type, _int(device_index))
        for field, value in zip(_FIELDS, values):
            object.__setattr__(self, field, value)

    def __setattr__(self, name, value):
        raise AttributeError("DeviceSpec is immutable: use replace() for a changed copy")

    @classmethod
    def from_string(cls, spec):
        """The spec a device name string describes (ValueError if it is not one)."""
        return cls(**_parse(spec))

    def parse_from_string(self, spec):
        return DeviceSpec.from_string(spec)

    def to_string(self):
        parts = [f"/{f}:{getattr(self, f)}" for f in ("job", "replica", "task")
                 if getattr(self, f) is not None]
        if self.device_type is not None:
            index = "*" if self.device_index is None else self.device_index
            parts.append(f"/device:{self.device_type}:{index}")
        return "".join(parts)

    def replace(self, **fields):
        """A copy with `fields` changed."""
        values = {f: getattr(self, f) for f in _FIELDS}
        values.update(fields)
        return DeviceSpec(**values)

    def make_merged_spec(self, dev):
        """A copy whose fields set in `dev` take `dev`'s values."""
        return self.replace(**{f: getattr(dev, f) for f in _FIELDS
                               if getattr(dev, f) is not None})

    def _key(self):
        return tuple(getattr(self, f) for f in _FIELDS)

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return ("<DeviceSpec(" + ", ".join(f"{f}={getattr(self, f)}" for f in _FIELDS)
                + ")>")


def _int(value):
    return None if value is None else int(value)


def _parse(spec):
    """{field: value} of a device name such as '/job:a/replica:0/device:GPU:1'."""
    fields = {}
    for part in (p for p in spec.split("/") if p):
        name, _, rest = part.partition(":")
        key = name.lower()
        if key in ("job", "replica", "task"):
            fields[key] = rest if key == "job" else int(rest)
            continue
        if key == "device":
            name, _, rest = rest.partition(":")
        if name.lower() in ("cpu", "gpu") or key == "device":
            fields["device_type"] = name.upper() if name.lower() in ("cpu", "gpu") else name
            fields["device_index"] = None if rest in ("", "*") else int(rest)
            continue
        raise ValueError(f"Unknown attribute '{name}' is encountered while parsing the "
                         f"device spec: '{spec}'.")
    return fields
