// Shapes shared by the page content files, so copy stays data and components stay generic.

/** What the SEO component needs for one page: its title and description (the language is the build's). */
export interface PageMeta {
  title: string;
  description: string;
}

export interface DocumentSection {
  /** Anchor id, unique within the document (the table of contents links to it). */
  id: string;
  heading: string;
  paragraphs?: readonly string[];
  items?: readonly string[];
  /** Text after the list. */
  after?: readonly string[];
  subsections?: readonly DocumentSection[];
  /** A block the page renders between the paragraphs and the list, from another source of truth. */
  slot?: 'company-contact' | 'cookie-settings' | 'deletion-form';
}

/** A legal or policy text: a title, when it was last changed, an introduction and sections. */
export interface PolicyDocument {
  meta: PageMeta;
  title: string;
  /** ISO date (YYYY-MM-DD) of the last change. */
  lastUpdated: string;
  lastUpdatedLabel: string;
  /**
   * Where one language's version is binding (privacy policy, terms, acceptable use: the German):
   * what each version says about it, and the link to the other language's version.
   */
  binding?: { notice: string; otherVersion: string };
  intro?: readonly string[];
  sections: readonly DocumentSection[];
}
