"""The RulePage target: pages of offers, reducers, bonds and auto rules, lowered to rl."""
