/** The tables of the Labels API (migration 0020_labels): per-project label priorities and label subscriptions. */

/** A label's priority in one project (reference `label_priorities`). */
export interface LabelPrioritiesTable {
  project_id: number;
  label_id: number;
  priority: number;
}

/** A user subscribed to a label (reference `subscriptions` of a Label). */
export interface LabelSubscriptionsTable {
  label_id: number;
  user_id: number;
}

export interface LabelsDatabase {
  forgekit_label_priorities: LabelPrioritiesTable;
  forgekit_label_subscriptions: LabelSubscriptionsTable;
}

/** The label tables, dependants first. */
export const LABELS_TABLES = ["forgekit_label_subscriptions", "forgekit_label_priorities"] as const;
