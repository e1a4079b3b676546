"""A checked game handed to other libraries: OpenSpiel (``openspiel``) and
PettingZoo (``pettingzoo``). Each module imports its library only when used."""
