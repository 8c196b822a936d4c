"""Forms built from the spec's request models: one generic form (``model_form``), the
widget for each kind of field (``field_kinds``), and what each form shows (``specs``)."""
