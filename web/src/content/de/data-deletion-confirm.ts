import { deletionDeadlineDays } from '#contracts/retention.ts';
import type * as en from '#web/content/data-deletion-confirm.ts';
import type { Localized } from '#web/content/localized.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

// /data-deletion/confirm: where a data-deletion request's emailed link leads.

export const dataDeletionConfirm = {
  meta: {
    title: 'Bestätigen Sie Ihren Antrag auf Datenlöschung',
    description:
      'Bestätigen Sie Ihren Antrag auf Datenlöschung über den Link, den wir Ihnen per E-Mail gesendet haben.',
  } satisfies PageMeta,
  title: 'Bestätigen Sie Ihren Antrag auf Datenlöschung',
  lead: 'Sie haben uns gebeten, die personenbezogenen Daten zu löschen, die wir zu Ihrer E-Mail-Adresse gespeichert haben. Gelöscht wird erst, wenn Sie bestätigen.',
  body: `Sobald Sie bestätigen, erledigen wir den Antrag innerhalb von ${deletionDeadlineDays} Tagen und teilen Ihnen mit, welche Datensätze wir aufgrund gesetzlicher Aufbewahrungspflichten behalten müssen.`,
  confirm: 'Löschantrag bestätigen',
  confirming: 'Wird bestätigt …',
  missing:
    'Dieser Link ist unvollständig. Öffnen Sie den Link in der E-Mail erneut, oder kopieren Sie ihn vollständig in die Adresszeile.',
  invalid:
    'Dieser Link funktioniert nicht mehr: Er ist abgelaufen oder wurde bereits verwendet. Für einen neuen Antrag nutzen Sie das Formular auf der Seite „Datenlöschung“.',
  dataDeletionLink: 'Zur Datenlöschung',
  failed: 'Ihre Bestätigung konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  confirmedTitle: 'Löschantrag bestätigt',
  requestIdLabel: 'Antrags-ID',
  dueByLabel: 'Erledigung bis',
  confirmedBody:
    'Bitte bewahren Sie die Antrags-ID auf. Wir erledigen Ihren Antrag bis zum oben genannten Datum und bestätigen Ihnen per E-Mail, wenn er abgeschlossen ist.',
} as const satisfies Localized<typeof en.dataDeletionConfirm>;
