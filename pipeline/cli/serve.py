"""placeholder"""
import typer
def register(app: typer.Typer) -> None:
    """x"""
