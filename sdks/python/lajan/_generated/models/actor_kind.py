from enum import StrEnum


class ActorKind(StrEnum):
    API_KEY = "api_key"
    SYSTEM = "system"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
