from enum import StrEnum


class Language(StrEnum):
    EN = "en"
    FR = "fr"
    HT = "ht"

    def __str__(self) -> str:
        return str(self.value)
