"""Provider-neutral request mapping: the adapter protocol, the intermediate wire form, the
shared ``prepare`` pipeline and the toolbox every provider's ``request.py`` builds on."""
