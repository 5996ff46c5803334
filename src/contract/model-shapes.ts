/**
 * What a type of the type model is (./model.ts): a simple type, a complex type with its fields and
 * attributes (and the readings of "not shown" and silence it can carry: open fields, open content,
 * text or element content, the rejection field), or an enumeration. The types themselves are
 * ./model-table.ts; the questions asked of them (bases folded in, value types, rejections) ./model.ts.
 */

export type SimpleType = 'string' | 'int' | 'decimal' | 'double' | 'boolean' | 'dateTime' | 'intList';
/** A simple type, the name of a complex or enum type of the model, or 'anyType' ("not shown"). */
export type TypeRef = SimpleType | 'anyType' | (string & {});

export interface ElementField {
  readonly kind: 'element';
  readonly name: string;
  readonly type: TypeRef;
  readonly min: 0 | 1;
  readonly max: 1 | 'unbounded';
  readonly nillable: boolean;
  /**
   * When set the element is a list wrapper (its `type` is then 'list'): it holds 0..n `item` elements of `list.type`
   * ('*': any item name).
   */
  readonly list?: { readonly item: string; readonly type: TypeRef };
}

/** "Not shown": any further elements may stand here (XSD: xs:any lax). */
export interface OpenField {
  readonly kind: 'open';
  readonly note: string;
}

export type Field = ElementField | OpenField;

export interface AttributeDef {
  readonly name: string;
  readonly type: SimpleType;
  readonly required: boolean;
}

/**
 * A complex type's content: in a ComplexType its own (an extension's fields without its base's), from
 * effective() with its bases folded in.
 */
export interface EffectiveType {
  readonly fields: readonly Field[];
  readonly attributes: readonly AttributeDef[];
  /** Simple content: the element's text is of this type (MonetaryValue). */
  readonly text?: SimpleType;
  /** Content not shown: any text and any elements. */
  readonly openContent?: string;
  /** Attributes beyond the listed ones not shown: any attribute accepted. */
  readonly anyAttribute?: string;
  /**
   * The element holds either text of this simple type or its element content (an ambiguous place:
   * both readings are accepted; activecancellationpolicy).
   */
  readonly orText?: SimpleType;
  /**
   * The field whose presence makes an element of this type an in-band rejection (BaseResult's
   * Error, section 7.1): its other fields, required or not, may then be absent.
   */
  readonly rejection?: string;
}

export interface ComplexType extends EffectiveType {
  readonly kind: 'complex';
  readonly name: string;
  readonly section: string;
  readonly base?: string;
}

export interface EnumType {
  readonly kind: 'enum';
  readonly name: string;
  readonly section: string;
  readonly values: readonly string[];
}

export type NamedType = ComplexType | EnumType;

export const SIMPLE_TYPES: readonly SimpleType[] = [
  'string',
  'int',
  'decimal',
  'double',
  'boolean',
  'dateTime',
  'intList',
];

export function isSimple(t: TypeRef): t is SimpleType {
  return (SIMPLE_TYPES as readonly string[]).includes(t);
}
