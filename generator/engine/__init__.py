"""The Random Position deck and rule 871 as pure functions: exact odds, crews, simulation."""
