"""`keras.callbacks.RemoteMonitor`: each epoch's logs POSTed to a server.

    RemoteMonitor(root="http://localhost:9000", path="/publish/epoch/end/",
                  field="data", headers=None, send_as_json=False)

At the end of each epoch {"epoch": epoch, **logs} goes to root + path: as a
form whose `field` holds it JSON-encoded, or with send_as_json as the JSON
body. It needs the `requests` library (an ImportError at the first epoch's
end without it, as Keras); a server that cannot be reached is a warning.
"""

import json
import warnings

import numpy as np

from runtime._src.keras.callbacks.callback import Callback

__all__ = ["RemoteMonitor"]


class RemoteMonitor(Callback):
    """Streams each epoch's logs to a server with an HTTP POST."""

    def __init__(self, root="http://localhost:9000", path="/publish/epoch/end/", field="data",
                 headers=None, send_as_json=False):
        super().__init__()
        self.root, self.path, self.field = root, path, field
        self.headers, self.send_as_json = headers, send_as_json

    def on_epoch_end(self, epoch, logs=None):
        try:
            import requests
        except ImportError:
            raise ImportError("RemoteMonitor requires the `requests` library.") from None
        send = {"epoch": epoch}
        for key, value in (logs or {}).items():
            send[key] = value.item() if isinstance(value, (np.ndarray, np.generic)) else value
        url = self.root + self.path
        try:
            if self.send_as_json:
                requests.post(url, json=send, headers=self.headers)
            else:
                requests.post(url, {self.field: json.dumps(send)}, headers=self.headers)
        except requests.exceptions.RequestException:
            warnings.warn(f"Could not reach RemoteMonitor root server at {self.root}",
                          stacklevel=2)
