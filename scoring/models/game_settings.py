"""The regulations' game settings as typed attributes, read from and written to their one field.

``Regulations.game_settings`` stores the settings the rule engine declares
(:mod:`scoring.rules.game_settings`); each setting is read and set as an attribute of its own
(``regulations.goat_at``), the one way code, templates and serializers reach it.
"""

from __future__ import annotations

from typing import Any, Generic, Self, TypeVar, overload

from scoring.rules.game_settings import GameSetting

T = TypeVar("T", int, bool, str)


class GameSettingAttribute(property, Generic[T]):
    """A game setting of the regulations: its stored value, or its declared default.

    A ``property`` (so that ``Regulations(goat_at=...)`` and ``objects.create`` take it too);
    setting it replaces the stored mapping, never changes one another instance may share.
    """

    def __init__(self, setting: GameSetting[T]) -> None:
        name, default = setting.name, setting.default

        def read(regulations: Any) -> T:
            return regulations.game_settings.get(name, default)

        def write(regulations: Any, value: T) -> None:
            regulations.game_settings = {**regulations.game_settings, name: value}

        super().__init__(read, write, doc=setting.label)
        self.setting: GameSetting[T] = setting

    @overload
    def __get__(self, instance: None, owner: type | None = None, /) -> Self: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None, /) -> T: ...

    def __get__(self, instance: object, owner: type | None = None, /) -> Any:
        return super().__get__(instance, owner)

    def __set__(self, instance: Any, value: T, /) -> None:
        super().__set__(instance, value)
