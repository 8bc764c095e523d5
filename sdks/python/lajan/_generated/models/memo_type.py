from enum import StrEnum


class MemoType(StrEnum):
    HASH = "hash"
    ID = "id"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
