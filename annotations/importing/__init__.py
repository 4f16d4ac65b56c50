"""Imports: outputs, finished judgements (E2E RankME exports, WMT rankings, column-mapped
rating files), whole E2E.

`parsers/` reads each input format into plain dataclasses (pure: no Django models, no
database). The importers here are not services: they are the layer above the services
that reads files (a path on the server, or uploaded bytes) through the parsers and calls
the services to write what the parsers return, one module per thing imported:

- ``outputs``: systems, items and outputs (`outputs_import`);
- ``ratings``: E2E RankME ratings and a whole E2E folder (`ratings_import`,
  `e2e_import`);
- ``wmt``: WMT relative rankings (`wmt_import`);
- ``mapped``: rating files of any shape read through a column mapping, from a path or
  an upload, during the request or as a job (`mapped_import`, `mapped_upload`), in two
  steps: ``mapped_criteria`` (the file's criteria, found or created, and the scales the
  preview announces) and ``mapped_rows`` (items, outputs, then the rows as finished
  judgements);
- ``mappings``: column mappings: from JSON, the built-in presets and the campaign's
  saved ones (`mapping_parse`, `mapping_resolve`, `mappings_offered`,
  `rating_mapping_save`);
- ``uploads``: uploaded files read with the size limit, then imported during the
  request or as a job (`uploads_read`, `outputs_upload`);
- ``jobs``: background import jobs (`import_job_create`, `import_job_run`,
  `import_jobs_sweep`), dispatched to Celery by task name.

The importers call the services below them: the campaign and criterion services, the
shared writer of finished judgements (`annotations.services.finished_judgements`, which
the demo campaigns use too) and the raw bulk inserter (`annotations.services.bulk`); no
service imports an importer (the layer contract).

Every importer parses its files completely and then writes in one
`transaction.atomic`: on any error nothing is written and the error
(`ImportFileError`) names the file, the line and the field.
"""
