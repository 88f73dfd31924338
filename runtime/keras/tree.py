"""`tf.keras.tree`: Keras 3's nested-structure utilities (flatten, paths,
map_structure, traverse, ...), defined in runtime/_src/keras/tree/tree_api.py."""

from runtime._src.keras.tree.tree_api import (MAP_TO_NONE, assert_same_paths, assert_same_structure,
                                              flatten, flatten_with_path, is_nested,
                                              lists_to_tuples, map_shape_structure, map_structure,
                                              map_structure_up_to, pack_sequence_as, traverse)

__all__ = ["MAP_TO_NONE", "assert_same_paths", "assert_same_structure", "flatten",
           "flatten_with_path", "is_nested", "lists_to_tuples", "map_shape_structure",
           "map_structure", "map_structure_up_to", "pack_sequence_as", "traverse"]
