"""`BackupAndRestore`: resume an interrupted `fit` where it stopped.

    cb = BackupAndRestore(backup_dir="/tmp/backup")
    model.fit(x, y, epochs=10, callbacks=[cb])     # interrupted in epoch 5
    model.fit(x, y, epochs=10, callbacks=[cb])     # starts at epoch 5 again

After each epoch (or every `save_freq` batches) the callback writes, in
`backup_dir`, Keras 3's files: `latest.weights.h5` (the model's weights and
the optimizer's state) and `training_metadata.json` ({"epoch": ...,
"batch": ...}). When `fit` starts and a backup exists, they are read back
and `fit` continues from the saved epoch. A finished `fit` deletes the
backup (`delete_checkpoint=True`).
"""

import json
import os
import shutil

from runtime._src.keras.saving import weights_file as saving
from runtime._src.keras.callbacks.callback import Callback

__all__ = ["BackupAndRestore"]


class BackupAndRestore(Callback):
    """`tf.keras.callbacks.BackupAndRestore(backup_dir, save_freq="epoch",
    double_checkpoint=False, delete_checkpoint=True)`."""

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False,
                 delete_checkpoint=True):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError("Invalid value for argument `save_freq`. Expected 'epoch' or an "
                             f"integer. Received: save_freq={save_freq}")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq, self.delete_checkpoint = save_freq, delete_checkpoint
        self.double_checkpoint = double_checkpoint
        self._weights_path = os.path.join(self.backup_dir,
                                          "latest" + saving.KERAS_WEIGHTS_SUFFIX)
        self._metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._current_epoch = 0
        self._batches_seen = 0
        self._last_batch_seen = 0

    def on_train_begin(self, logs=None):
        if not os.path.exists(self._weights_path):
            return
        self.model.load_weights(self._weights_path)      # the optimizer's state too
        if os.path.exists(self._metadata_path):
            with open(self._metadata_path, encoding="utf-8") as f:
                self.model._initial_epoch = json.load(f)["epoch"]

    def on_train_batch_end(self, batch, logs=None):
        self._last_batch_seen = batch + 1
        if self.save_freq == "epoch":
            return
        self._batches_seen += 1
        if self._batches_seen >= self.save_freq:
            self._batches_seen = 0
            self._save()

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._save()

    def _save(self):
        os.makedirs(self.backup_dir, exist_ok=True)
        self.model.save_weights(self._weights_path, overwrite=True)
        with open(self._metadata_path, "w", encoding="utf-8") as f:
            json.dump({"epoch": self._current_epoch, "batch": self._last_batch_seen}, f)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)
